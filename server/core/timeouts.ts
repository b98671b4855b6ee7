import type { ServerOptions } from 'node:http';

// How long a client may take: to send a request, or between two messages of an OpenEnv WebSocket.

/** How long a client may take to send its request's headers, and the whole request with its body (HEADERS_TIMEOUT, REQUEST_TIMEOUT). */
export interface RequestTimeouts {
  headersMs: number;
  requestMs: number;
}

/** A 1 MiB body needs 17 KB/s to arrive in time; a client that trickles one is cut off with a 408. */
export const DEFAULT_TIMEOUTS: RequestTimeouts = { headersMs: 20_000, requestMs: 60_000 };

/** How long an OpenEnv WebSocket may stay without a message before it is closed (OPENENV_IDLE_TIMEOUT). */
export const OPENENV_IDLE_MS = 300_000;

/**
 * fastify's options enforcing the timeouts. Node checks open connections against them every
 * `connectionsCheckingInterval` (30 s by default, longer than the timeouts themselves may be): a check
 * four times per headers timeout, at most once a second, keeps the cut close to the bound.
 */
export function timeoutOptions({ headersMs, requestMs }: RequestTimeouts): { requestTimeout: number; http: ServerOptions } {
  const requestTimeout = Math.ceil(requestMs);
  const headersTimeout = Math.min(Math.ceil(headersMs), requestTimeout);
  return {
    requestTimeout,
    http: { requestTimeout, headersTimeout, connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.ceil(headersTimeout / 4))) },
  };
}
