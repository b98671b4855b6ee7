import type { IncomingHttpHeaders } from 'node:http';
import { type ProblemError, problemError } from '../core/problem.js';
import { checkStatus } from './answer.js';
import { type FetchError, fetchWhole, type WholeAnswer, type WholeRequest } from './fetch.js';

/** What the upstream answered: status, headers and the body's bytes, as received (content codings undone). */
export interface UpstreamAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
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
 * Sends one request to a declared upstream and reads its whole answer. The proxy's own failures are problems:
 * the upstream did not send its whole answer in time (504), could not be reached (502), answered more than the
 * size limit (502), in a content coding the proxy cannot undo, or with a status HTTP does not have (502).
 */
export async function forward(upstream: WholeRequest): Promise<UpstreamAnswer> {
  let answer: WholeAnswer;
  try {
    answer = await fetchWhole(upstream);
  } catch (error) {
    throw problemOf(error as FetchError, upstream);
  }
  checkStatus(answer.status);
  return { status: answer.status, headers: returnedHeaders(answer.headers), body: answer.body };
}

function problemOf(failure: FetchError, upstream: WholeRequest): ProblemError {
  switch (failure.reason) {
    case 'timeout':
      return problemError(
        504,
        'upstream_timeout',
        `The upstream did not send its whole answer (headers and body) within ${upstream.timeoutMs} ms (timeout_ms).`,
      );
    case 'too_large':
      return problemError(502, 'upstream_answer_too_large', `The upstream's answer is larger than ${upstream.maxBodyBytes} bytes (max_body_bytes).`);
    case 'encoding':
      return problemError(502, 'upstream_encoding', `The upstream's answer cannot be read: ${failure.message}.`, { encoding: failure.encoding });
    case 'unreachable':
      return problemError(502, 'upstream_unreachable', `The upstream could not be reached (${failure.message}).`);
  }
}
