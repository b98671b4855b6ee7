import type { IncomingHttpHeaders } from 'node:http';
import { ProblemError, problemError } from '../problem.js';

/** What the upstream answered: status, headers and the body's bytes, as received. */
export interface UpstreamAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface UpstreamRequest {
  /** The full URL: the declared base and the path (with its query). */
  url: string;
  method: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
  timeoutMs: number;
  maxBodyBytes: number;
}

// Hop-by-hop headers (RFC 9110 §7.6.1) are the connection's, not the message's; the session header is the proxy's.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);
const NOT_FORWARDED = new Set([...HOP_BY_HOP, 'host', 'content-length', 'x-session-id', 'accept-encoding']);
const NOT_RETURNED = new Set([...HOP_BY_HOP, 'content-length']);

/**
 * The HTTP client, loaded on the first proxied call (a server without proxies never loads it), with one
 * connection pool for every upstream; redirects are never followed (a 3xx goes back to the client as it is).
 */
let client: Promise<{ undici: typeof import('undici'); agent: import('undici').Agent }> | undefined;
const httpClient = () => (client ??= import('undici').then((undici) => ({ undici, agent: new undici.Agent({ keepAliveTimeout: 10_000, connections: 128 }) })));

/** The client's headers as the upstream receives them: authorization and the rest untouched, the connection's own dropped. */
export function forwardedHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || NOT_FORWARDED.has(name)) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  // The proxy reads answers to disturb them: they must come uncompressed.
  out['accept-encoding'] = 'identity';
  return out;
}

/** The upstream's headers as the client receives them. */
export function returnedHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || NOT_RETURNED.has(name)) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/**
 * Sends one request to a declared upstream. The proxy's own failures are problems: the upstream did not
 * answer in time (504), could not be reached (502), or answered more than the size limit (502).
 */
export async function forward(upstream: UpstreamRequest): Promise<UpstreamAnswer> {
  const { undici, agent } = await httpClient();
  try {
    const response = await undici.request(upstream.url, {
      dispatcher: agent,
      method: upstream.method as 'GET',
      headers: upstream.headers,
      body: upstream.body,
      headersTimeout: upstream.timeoutMs,
      bodyTimeout: upstream.timeoutMs,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length;
      if (size > upstream.maxBodyBytes) {
        response.body.destroy();
        throw problemError(502, 'upstream_answer_too_large', `The upstream's answer is larger than ${upstream.maxBodyBytes} bytes (max_body_bytes).`);
      }
      chunks.push(chunk as Buffer);
    }
    return { status: response.statusCode, headers: returnedHeaders(response.headers), body: Buffer.concat(chunks) };
  } catch (error) {
    if (error instanceof undici.errors.HeadersTimeoutError || error instanceof undici.errors.BodyTimeoutError)
      throw problemError(504, 'upstream_timeout', `The upstream did not answer within ${upstream.timeoutMs} ms (timeout_ms).`);
    if (error instanceof ProblemError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw problemError(502, 'upstream_unreachable', `The upstream could not be reached (${code}).`);
  }
}
