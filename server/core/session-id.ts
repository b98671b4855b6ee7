import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { DEFAULT_SESSION } from './sessions/store.js';

const FROM_PATH = Symbol('session id from path');
type Tagged = IncomingMessage & { [FROM_PATH]?: string };

/**
 * Fastify's rewriteUrl: `/s/{id}/rest` is served as `/rest`, remembering the id, so every
 * route exists once and works both outside and inside a session.
 */
export const stripSessionPrefix = sessionPaths('');

/**
 * The rewriteUrl of a fastify app serving wildtools under `prefix` (plugin.ts): `{prefix}/s/{id}/rest` is
 * served as `{prefix}/rest`, remembering the id; other paths are left alone.
 */
export function sessionPaths(prefix: string): (request: IncomingMessage) => string {
  const head = `${prefix}/s/`;
  return (request) => {
    const url = request.url ?? '/';
    if (!url.startsWith(head)) return url;
    const end = url.indexOf('/', head.length);
    const raw = url.slice(head.length, end < 0 ? undefined : end);
    let id = raw;
    try {
      id = decodeURIComponent(raw);
    } catch {
      // keep the raw text: the session store rejects it with a clear message
    }
    (request as Tagged)[FROM_PATH] = id;
    return end < 0 ? `${prefix}/` : prefix + url.slice(end);
  };
}

/** The session a request addresses: `/s/{id}/…`, else the X-Session-Id header, else `default`. */
export function sessionIdOf(request: FastifyRequest): string {
  return addressedSession(request) ?? DEFAULT_SESSION;
}

/** The session a request names (`/s/{id}/…` or X-Session-Id), if it names one. */
export function addressedSession(request: FastifyRequest): string | undefined {
  const fromPath = (request.raw as Tagged)[FROM_PATH];
  if (fromPath !== undefined) return fromPath;
  const header = request.headers['x-session-id'];
  return (Array.isArray(header) ? header[0] : header) || undefined;
}
