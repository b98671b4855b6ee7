import type { FastifyInstance } from 'fastify';
import type { Domain } from '../domains/domain.js';
import { domains as embeddedDomains } from '../domains/index.js';
import type { HazardEngine } from '../hazards/engine.js';
import { hazardsFromEnvironment } from '../hazards/setup.js';
import { type AppOptions, registerApp } from './app.js';
import type { AccessOptions } from './core/access.js';
import { loadConfig } from './core/config.js';
import type { BaseDatabase } from './core/data/base.js';
import { loadBases } from './core/load.js';
import { sessionPaths } from './core/session-id.js';
import type { PersistenceOptions } from './core/sessions/persistence.js';
import type { SessionStoreOptions } from './core/sessions/store.js';
import type { Upstream } from './proxy/proxies.js';

export { sessionPaths };
export type { AccessOptions, BaseDatabase, Domain, HazardEngine, PersistenceOptions, SessionStoreOptions, Upstream };

export interface WildtoolsOptions {
  /** The domains served; default: the four embedded ones. */
  domains?: readonly Domain[];
  /** Each domain's database by name; default: the embedded data. */
  bases?: ReadonlyMap<string, BaseDatabase>;
  /** Session settings over the server's defaults (an hour's TTL, the journal's limits, seed 0). */
  sessions?: Partial<Omit<SessionStoreOptions, 'bases'>>;
  /**
   * Hazards as the environment flags would give them (`{ env: { HAZARDS: 'failures', HAZARD_SEED: '1' } }`,
   * read as `npm start` reads HAZARDS, HAZARD__<tool>, HAZARD_SEED, HAZARD_CONFIG…), or an engine; default: none.
   */
  hazards?: { env: NodeJS.ProcessEnv } | HazardEngine;
  /** Bearer tokens for admin and api routes, allowed Host names; default: none (admin routes answer same-machine requests only). */
  access?: AccessOptions;
  /** Keep sessions in a folder across restarts. */
  persistence?: PersistenceOptions;
  /** A tau2-bench tasks.json by domain name: its tasks replace the domain's embedded ones. */
  taskFiles?: Readonly<Record<string, string>>;
  /** Upstreams served under {prefix}/proxy/{name}/, built and connected. */
  proxies?: readonly Upstream[];
  /** Given by fastify's register: the routes' prefix. */
  prefix?: string;
}

/**
 * wildtools as a fastify plugin: `app.register(wildtools, { prefix: '/wildtools', ... })` serves every route of
 * the server (REST, OpenAPI, MCP, OpenEnv, proxies) in its own encapsulated context, so its hooks, error
 * handler and body parser leave the host app's routes alone. Sessions are named by the X-Session-Id header;
 * for `{prefix}/s/{id}/…` paths, create the app with `rewriteUrl: sessionPaths(prefix)`.
 */
export default async function wildtools(app: FastifyInstance, options: WildtoolsOptions = {}): Promise<void> {
  const domains = options.domains ?? embeddedDomains;
  const config = loadConfig({}, domains);
  const configured =
    options.hazards === undefined || !('env' in options.hazards)
      ? { engine: options.hazards, seed: undefined }
      : hazardsFromEnvironment(
          options.hazards.env,
          domains,
          undefined,
          (options.proxies ?? []).map((upstream) => upstream.domain()),
        );
  const appOptions: AppOptions = {
    domains,
    bases: options.bases ?? (await loadBases(domains)),
    sessions: {
      ttlMs: config.sessionTtlMs,
      maxSessions: config.maxSessions,
      journalLimit: config.journalLimit,
      journalMemory: config.journalMemory,
      defaultSeed: configured.seed ?? config.seed,
      compat: config.compat,
      ...options.sessions,
    },
    ...(configured.engine ? { hazards: configured.engine } : {}),
    ...(options.access ? { access: options.access } : {}),
    ...(options.persistence ? { persistence: options.persistence } : {}),
    ...(options.taskFiles ? { taskFiles: options.taskFiles } : {}),
    ...(options.proxies ? { proxies: options.proxies } : {}),
  };
  await registerApp(app, appOptions);
}
