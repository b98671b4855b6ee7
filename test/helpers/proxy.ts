import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { Pool } from 'undici';
import { buildCrm, type CrmOptions } from '../../examples/upstream-crm/app.js';
import type { HazardEngineApi } from '../../hazards/engine-api.js';
import { parseUpstream, type ProxyRule } from '../../server/proxy/config.js';
import { HttpProxy } from '../../server/proxy/upstream.js';
import { type Reply, requester, startServer, type TestServer } from './server.js';

// What the proxy tests share: the example CRM started on loopback (the user's own API), and wildtools in
// front of it as the proxy `crm`.

export const CRM_DOCUMENT = JSON.parse(readFileSync('examples/upstream-crm/openapi.json', 'utf8')) as Record<string, unknown>;

interface Teardown {
  teardown(fn: () => unknown): void;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Upstream {
  app: FastifyInstance;
  origin: string;
  request(method: Method, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
}

/** An HTTP client of one origin, keeping the raw text and every header. */
export function client(t: Teardown, origin: string) {
  const pool = new Pool(origin, { connections: 4 });
  t.teardown(() => pool.close());
  return requester(pool);
}

/** The example CRM listening on a free loopback port; closed when the test ends. */
export async function startCrm(t: Teardown, options: CrmOptions = {}): Promise<Upstream> {
  const app = buildCrm(options);
  await app.listen({ port: 0, host: '127.0.0.1' });
  t.teardown(() => app.close());
  const address = app.server.address();
  const origin = typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : '';
  return { app, origin, request: client(t, origin) };
}

export interface Proxied {
  crm: Upstream;
  server: TestServer;
  /** A request to `/proxy/crm/…`, inside `session` when given. */
  proxy(method: Method, path: string, body?: unknown, options?: { session?: string; headers?: Record<string, string> }): Promise<Reply>;
  /** Like `proxy`, but a connection that fails (reset, closed, cut) answers status 0 instead of throwing. */
  attempt(method: Method, path: string, body?: unknown, options?: { session?: string; headers?: Record<string, string> }): Promise<Reply>;
}

/** wildtools with the CRM behind it as `crm` (its OpenAPI document unless `document: false`). */
export async function startProxied(
  t: Teardown,
  options: {
    crm?: CrmOptions;
    rules?: ProxyRule[];
    document?: boolean;
    operations?: Record<string, string>;
    hazardEnv?: NodeJS.ProcessEnv;
    hazards?: HazardEngineApi;
    timeout_ms?: number;
    max_body_bytes?: number;
  } = {},
): Promise<Proxied> {
  const crm = await startCrm(t, options.crm);
  const config = parseUpstream(
    {
      upstream: crm.origin,
      ...(options.rules ? { rules: options.rules } : {}),
      ...(options.operations ? { operations: options.operations } : {}),
      ...(options.timeout_ms ? { timeout_ms: options.timeout_ms } : {}),
      ...(options.max_body_bytes ? { max_body_bytes: options.max_body_bytes } : {}),
    },
    'test',
  );
  const proxy = HttpProxy.build('crm', config as never, options.document === false ? undefined : CRM_DOCUMENT);
  const server = await startServer(t, {
    proxies: [proxy],
    ...(options.hazardEnv ? { hazardEnv: options.hazardEnv } : {}),
    ...(options.hazards ? { hazards: options.hazards } : {}),
  });
  const send = client(t, server.origin);
  const proxyRequest: Proxied['proxy'] = (method, path, body, { session, headers } = {}) =>
    send(method, `${session ? `/s/${session}` : ''}/proxy/crm${path}`, body, headers);
  return {
    crm,
    server,
    proxy: proxyRequest,
    attempt: (method, path, body, options_) =>
      proxyRequest(method, path, body, options_).catch((error: unknown) => {
        if (!(error instanceof Error) || !/socket|ECONNRESET|UND_ERR/i.test(`${(error as { code?: string }).code ?? ''} ${error.message}`)) throw error;
        return { status: 0, headers: {}, body: undefined as never, text: '' };
      }),
  };
}

/** Headers that differ between two answers of the same content by nature (time, connection). */
export const sameHeaders = (headers: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name.toLowerCase())));
