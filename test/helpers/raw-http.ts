import { connect } from 'node:net';

// HTTP as no client library would send it (a Host with a space, an absolute-form target, a body that never
// ends): bytes written on a connection of their own, and the answer read until the server closes it.

export interface RawReply {
  /** The status of the answer; 0 when the server closed the connection without one. */
  status: number;
  /** Its Content-Type. */
  type: string;
  /** Its body, parsed when it is JSON. */
  body: any;
}

/** Writes `request` (send `Connection: close` for the server to close after answering) and reads the answer. */
export function raw(origin: string, request: string): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = openSocket(origin, () => socket.write(request));
    answerOf(socket).then(resolve, reject);
  });
}

/** A connection to the server at `origin`, for requests written piece by piece. */
export function openSocket(origin: string, onConnect?: () => void) {
  const { hostname, port } = new URL(origin);
  return connect(Number(port), hostname, onConnect);
}

/**
 * The answer read on `socket`: until it closes, or until its Content-Length is read, or its head when it
 * switches protocols (the connection is then closed).
 */
export function answerOf(socket: ReturnType<typeof connect>): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (complete(text)) socket.destroy();
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(parse(text)));
  });
}

function complete(text: string): boolean {
  const split = text.indexOf('\r\n\r\n');
  if (split < 0) return false;
  const head = text.slice(0, split);
  if (/^HTTP\/1\.1 101 /.test(head)) return true;
  const length = /\r\ncontent-length: *(\d+)/i.exec(head)?.[1];
  return length !== undefined && text.length - split - 4 >= Number(length);
}

function parse(text: string): RawReply {
  const split = text.indexOf('\r\n\r\n');
  const head = split < 0 ? text : text.slice(0, split);
  const body = split < 0 ? '' : text.slice(split + 4);
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
  const type = /content-type: ([^\r\n]+)/i.exec(head)?.[1] ?? '';
  let parsed: unknown = body;
  try {
    parsed = JSON.parse(Buffer.from(body, 'latin1').toString('utf8'));
  } catch {
    // not JSON: the assertions say so
  }
  return { status, type, body: parsed };
}
