import { TooLarge, decodeBody, EncodingError } from './encoding.js';

// One HTTP exchange with an upstream, read whole under one deadline: the headers and every byte of the body
// (an upstream that trickles its body cannot hold a call past it), at most a size limit, content codings undone.

export interface WholeRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
  /** The deadline of the whole exchange, from sending to the body's last byte. */
  timeoutMs: number;
  /** The largest body read, once decoded. */
  maxBodyBytes: number;
}

/** The answer: its status, its headers as received (but `content-encoding` once decoded), its body's bytes. */
export interface WholeAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export type FetchFailure = 'timeout' | 'too_large' | 'unreachable' | 'encoding';

/** Why no whole answer came: `message` says it in a few words, for a problem's detail or a config error. */
export class FetchError extends Error {
  constructor(
    readonly reason: FetchFailure,
    message: string,
    /** The content coding, for `encoding`. */
    readonly encoding?: string,
  ) {
    super(message);
  }
}

/**
 * The HTTP client, loaded on the first exchange (a server without proxies never loads it), with one
 * connection pool for every upstream; redirects are never followed (a 3xx is an answer like any other).
 */
let client: Promise<{ undici: typeof import('undici'); agent: import('undici').Agent }> | undefined;
const httpClient = () => (client ??= import('undici').then((undici) => ({ undici, agent: new undici.Agent({ keepAliveTimeout: 10_000, connections: 128 }) })));

export async function fetchWhole(request: WholeRequest): Promise<WholeAnswer> {
  const { undici, agent } = await httpClient();
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), request.timeoutMs);
  try {
    const response = await undici.request(request.url, {
      dispatcher: agent,
      method: request.method as 'GET',
      headers: request.headers,
      body: request.body,
      signal: deadline.signal,
    });
    const body = await readAtMost(response.body, request.maxBodyBytes);
    const { 'content-encoding': encoding, ...headers } = response.headers;
    const coding = Array.isArray(encoding) ? encoding.join(', ') : (encoding ?? '');
    if (body.length === 0 || /^\s*(identity\s*)?$/i.test(coding)) return { status: response.statusCode, headers: response.headers, body };
    return { status: response.statusCode, headers, body: await decodeBody(coding, body, request.maxBodyBytes) };
  } catch (error) {
    throw failureOf(error, deadline.signal.aborted, request);
  } finally {
    clearTimeout(timer);
  }
}

async function readAtMost(body: AsyncIterable<Buffer> & { destroy(): void }, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) {
      body.destroy();
      throw new TooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function failureOf(error: unknown, timedOut: boolean, request: WholeRequest): FetchError {
  if (timedOut) return new FetchError('timeout', `no whole answer within ${request.timeoutMs} ms`);
  if (error instanceof TooLarge) return new FetchError('too_large', `larger than ${request.maxBodyBytes} bytes`);
  if (error instanceof EncodingError) return new FetchError('encoding', error.message, error.encoding);
  return new FetchError('unreachable', (error as NodeJS.ErrnoException).code ?? (error as Error).message);
}
