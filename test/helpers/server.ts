import type { FastifyInstance } from 'fastify';
import { Pool } from 'undici';
import { domains } from '../../domains/index.js';
import type { HazardEngineApi } from '../../hazards/engine-api.js';
import { hazardsFromEnvironment } from '../../hazards/setup.js';
import type { AccessOptions } from '../../server/core/access.js';
import { type AppOptions, buildApp } from '../../server/app.js';
import type { BaseDatabase } from '../../server/core/data/base.js';
import { loadBases } from '../../server/core/load.js';
import type { PersistenceOptions } from '../../server/core/sessions/persistence.js';
import type { Upstream } from '../../server/proxy/proxies.js';
// The app's decorators (registry, sessions, tasks, …): their types come with the module that declares them.
import type {} from '../../server/core/services.js';
import { undeclaredRefusal } from './error-codes.js';
import type { SessionStoreOptions } from '../../server/core/sessions/store.js';

let defaultBases: Promise<Map<string, BaseDatabase>> | undefined;

/** The embedded fixtures, loaded once per test process; each caller gets its own map to change. */
export async function fixtureBases(): Promise<Map<string, BaseDatabase>> {
  defaultBases ??= loadBases(domains);
  return new Map(await defaultBases);
}

export interface Reply<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
  text: string;
}

export interface TestServer {
  app: FastifyInstance;
  origin: string;
  request<T = any>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply<T>>;
  /** POST /{domain}/tools/{tool}, inside `session` when given (via the /s/{id} prefix). */
  call<T = any>(domain: string, tool: string, args?: unknown, session?: string): Promise<Reply<T>>;
  /** Like `call`, but a connection that fails (reset, closed, cut) answers status 0 instead of throwing. */
  attempt<T = any>(domain: string, tool: string, args?: unknown, session?: string): Promise<Reply<T>>;
  /** The session's journal, as GET /sessions/{id}/journal returns it. */
  journal<T = any>(session?: string): Promise<T[]>;
  /** Creates a session with POST /sessions (options as its body) and returns its id. */
  newSession(options?: Record<string, unknown>): Promise<string>;
  /** The session's database as GET /sessions/{id}/state returns it. */
  state(session?: string): Promise<Record<string, any>>;
}

interface Teardown {
  teardown(fn: () => unknown): void;
}

/** A listening server on a free port with an undici client; closed when the test ends. */
export async function startServer(
  t: Teardown,
  options: {
    sessions?: Partial<Omit<SessionStoreOptions, 'bases'>>;
    hazards?: HazardEngineApi;
    bases?: Map<string, BaseDatabase>;
    persistence?: PersistenceOptions;
    access?: AccessOptions;
    /** Hazard variables, as the environment would give them (HAZARDS, HAZARD__…, HAZARD_SEED…). */
    hazardEnv?: NodeJS.ProcessEnv;
    /** How the latency hazard waits (default: not at all, so tests never sleep on wall time). */
    sleep?: (ms: number) => Promise<void>;
    /** Upstreams served under /proxy/{name}/ (their domains attached before hazardEnv is read). */
    proxies?: readonly Upstream[];
  } & Pick<AppOptions, 'timeouts' | 'openenvIdleMs' | 'proxyExec'> = {},
): Promise<TestServer> {
  const attached = (options.proxies ?? []).map((upstream) => upstream.domain());
  const configured = options.hazardEnv ? hazardsFromEnvironment(options.hazardEnv, domains, options.sleep ?? (async () => {}), attached) : undefined;
  const app = await buildApp({
    domains,
    bases: options.bases ?? (await fixtureBases()),
    sessions: { ttlMs: 3_600_000, maxSessions: 100, defaultSeed: configured?.seed ?? '0', ...options.sessions },
    ...(options.hazards ? { hazards: options.hazards } : configured ? { hazards: configured.engine } : {}),
    ...(options.persistence ? { persistence: options.persistence } : {}),
    ...(options.access ? { access: options.access } : {}),
    ...(options.proxies ? { proxies: options.proxies } : {}),
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
    ...(options.openenvIdleMs ? { openenvIdleMs: options.openenvIdleMs } : {}),
    ...(options.proxyExec ? { proxyExec: true } : {}),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const origin = typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : '';
  const pool = new Pool(origin, { connections: 4 });
  t.teardown(async () => {
    await pool.close();
    await app.close();
  });

  const request: TestServer['request'] = requester(pool);

  return {
    app,
    origin,
    request,
    call: (domain, tool, args = {}, session) => request('POST', `${session ? `/s/${session}` : ''}/${domain}/tools/${tool}`, args),
    attempt: (domain, tool, args = {}, session) =>
      request('POST', `${session ? `/s/${session}` : ''}/${domain}/tools/${tool}`, args).catch((error: unknown) => {
        if (!(error instanceof Error) || !/socket|ECONNRESET|UND_ERR/i.test(`${(error as { code?: string }).code ?? ''} ${error.message}`)) throw error;
        return { status: 0, headers: {}, body: undefined as never, text: '' };
      }),
    journal: async (session = 'default') => (await request('GET', `/sessions/${session}/journal`)).body,
    newSession: async (options = {}) => {
      const reply = await request('POST', '/sessions', options);
      if (reply.status !== 201) throw new Error(`POST /sessions answered ${reply.status}: ${reply.text}`);
      return (reply.body as { id: string }).id;
    },
    state: async (session = 'default') => (await request('GET', `/sessions/${session}/state`)).body as Record<string, any>,
  };
}

export interface Rejection {
  args: unknown;
  status: number;
  detail: string;
  /** The argument the refusal names, when it names one. */
  field?: string;
  why?: string;
}

interface Asserts {
  equal(found: unknown, wanted: unknown, message: string): boolean;
  match(found: unknown, pattern: unknown, message: string): boolean;
}

/** Calls `tool` with each case's arguments; each must answer its status and exact problem detail. */
export async function expectRejections(t: Asserts, server: TestServer, domain: string, tool: string, cases: readonly Rejection[], session?: string) {
  for (const { args, status, detail, field, why = detail } of cases) {
    const reply = await server.call(domain, tool, args, session);
    t.equal(reply.status, status, why);
    t.equal(reply.body?.detail, detail, why);
    if (field !== undefined) t.equal(reply.body?.field, field, `${why}: names ${field}`);
    const declared = server.app.registry.byDomain.get(domain)?.get(tool)?.tool;
    if (declared) t.equal(undeclaredRefusal(declared, reply.status, reply.body?.code), undefined, `${why}: a code ${tool} declares`);
    t.match(reply.headers['content-type'], /application\/problem\+json/, why);
  }
}

/** Requests over a pool, JSON bodies sent as such, answers parsed when they are JSON (their text kept). */
export function requester(pool: Pool) {
  return async <T = any>(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Reply<T>> => {
    const hasBody = body !== undefined;
    const response = await pool.request({
      method,
      path,
      headers: { ...(hasBody && typeof body !== 'string' ? { 'content-type': 'application/json' } : {}), ...headers },
      body: hasBody ? (typeof body === 'string' ? body : JSON.stringify(body)) : null,
    });
    const text = await response.body.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      // not JSON (markdown, HTML): keep the text
    }
    return { status: response.statusCode, headers: response.headers, body: parsed as T, text };
  };
}
