import type { WebSocket } from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';

/** Messages a connection may have waiting; a client that sends more without reading the answers is cut off. */
const MAX_QUEUED = 64;

/** What a protocol served over a WebSocket says, and does with the connection's session. */
export interface SocketProtocol {
  /** The answer to one text frame (null for a binary one), or nothing to send. */
  answer(text: string | null): Promise<object | undefined>;
  /** The answer to a message whose handling threw. */
  failure(failure: unknown): object;
  /** What to tell a client refused because every session is in use. */
  full(connections: number): object;
  /** What to tell a client that sent more than MAX_QUEUED messages without reading the answers. */
  flooded(limit: number): object;
  /** What to tell a client closed for idling. */
  idle(seconds: number): object;
  /** The connection closed: its session goes (unless the protocol keeps it). */
  discard(): void;
}

/** The connections open over both OpenEnv WebSockets: each holds a session, so together they are bounded by MAX_SESSIONS. */
export class SocketPlaces {
  private open = 0;

  constructor(private readonly app: FastifyInstance) {}

  /**
   * Serves a connection: refused when every session is in use, its messages answered one after another in order,
   * closed after idleMs without a message so that idle clients cannot hold every place.
   */
  serve(socket: WebSocket, protocol: SocketProtocol, idleMs: number): void {
    const most = this.app.sessions.maxSessions;
    if (this.open >= most) {
      send(socket, protocol.full(this.open));
      socket.close(1013, 'capacity reached');
      return;
    }
    this.open++;
    let queued = 0;
    let chain: Promise<void> = Promise.resolve();
    const idle = setTimeout(() => {
      send(socket, protocol.idle(Math.round(idleMs / 1000)));
      socket.close(1001, 'idle');
    }, idleMs);
    socket.on('message', (data, isBinary) => {
      idle.refresh();
      if (++queued > MAX_QUEUED) {
        send(socket, protocol.flooded(MAX_QUEUED));
        socket.close(1008, 'too many messages waiting');
        return;
      }
      const text = isBinary ? null : data.toString();
      chain = chain.then(async () => {
        const answer = await protocol.answer(text).catch((failure: unknown) => protocol.failure(failure));
        queued--;
        if (answer) send(socket, answer);
      });
    });
    socket.on('close', () => {
      clearTimeout(idle);
      this.open--;
      void chain.then(() => protocol.discard());
    });
  }
}

export function send(socket: WebSocket, message: object): void {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
}
