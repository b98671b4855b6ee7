import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import { pino } from 'pino';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Domain } from '../domains/domain.js';
import { HazardEngine } from '../hazards/engine.js';
import type { HazardEngineApi } from '../hazards/engine-api.js';
import type { BaseDatabase } from './core/data/base.js';
import { type AccessOptions, accessControl } from './core/access.js';
import { clientErrorHandler, frameworkErrors } from './core/client-errors.js';
import { errors } from './core/errors.js';
import { BODY_LIMIT, jsonBodyParser } from './core/json-body.js';
import { swaggerOptions } from './core/openapi.js';
import { Registry } from './core/registry.js';
import { hazardRoutes } from './http/hazards.js';
import { listingRoutes } from './http/listings.js';
import { mcpRoutes } from './mcp/http.js';
import { metaRoutes } from './http/meta.js';
import { openapiRoutes } from './http/openapi.js';
import { sessionRoutes } from './http/sessions.js';
import { toolRoutes } from './http/tools.js';
import { stripSessionPrefix } from './core/session-id.js';
import { SessionStore, type SessionStoreOptions } from './core/sessions/store.js';
import { AttachedDatabases } from './core/data/attached.js';
import { TaskBook } from './core/tasks/book.js';
import { submitAnswer } from './core/tasks/answers.js';
import { seedOf } from './core/tasks/seeds.js';
import type { SessionOptions } from './core/sessions/session.js';
import type { TaskInstance } from './core/tasks/instance.js';
import { taskRoutes } from './http/tasks.js';
import { scoringRoutes } from './http/scoring.js';
import { batchRoutes } from './http/batches.js';
import { viewRoutes } from './http/view.js';
import { landingRoutes } from './http/landing.js';
import { Batches } from './core/tasks/batches.js';
import { openenvRoutes } from './openenv/index.js';
import { services } from './core/services.js';
import { DEFAULT_TIMEOUTS, OPENENV_IDLE_MS, type RequestTimeouts, timeoutOptions } from './core/timeouts.js';
import { type McpConnector, Proxies, type Upstream } from './proxy/proxies.js';
import { proxyAdminRoutes, proxyRoutes } from './proxy/routes.js';
import { sessionLifecycle } from './core/sessions/lifecycle.js';
import type { PersistenceOptions } from './core/sessions/persistence.js';

export interface AppOptions {
  domains: readonly Domain[];
  /** Loaded databases by domain name. */
  bases: ReadonlyMap<string, BaseDatabase>;
  sessions: Omit<SessionStoreOptions, 'bases'>;
  /** The hazard engine; one with every hazard off when absent. */
  hazards?: HazardEngineApi;
  logger?: FastifyServerOptions['logger'];
  /** Bearer tokens for admin routes and for every api route (see access.ts). */
  access?: AccessOptions;
  /** Keep sessions in a folder across restarts (DATA_DIR). */
  persistence?: PersistenceOptions;
  /** A tau2-bench tasks.json by domain name (TASKS_<DOMAIN>): its tasks replace the domain's embedded ones. */
  taskFiles?: Readonly<Record<string, string>>;
  /** Upstreams served under /proxy/{name}/ (PROXY_CONFIG), built and connected. */
  proxies?: readonly Upstream[];
  /** ADMIN_PROXY_EXEC: admin calls may declare commands, files and documents on any host. */
  proxyExec?: boolean;
  /** How MCP upstreams declared at runtime are connected. */
  connectMcp?: McpConnector;
  /** How long a client may take to send a request (REQUEST_TIMEOUT, HEADERS_TIMEOUT). */
  timeouts?: RequestTimeouts;
  /** How long an OpenEnv WebSocket may stay without a message (OPENENV_IDLE_TIMEOUT). */
  openenvIdleMs?: number;
}

const LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" width="150" height="40"><text x="0" y="28" font-family="sans-serif" font-size="26" font-weight="bold" ' +
  'fill="#89bf04">wildtools</text></svg>';

/** The whole server as a fastify instance, not yet listening. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    // Fastify's own logger costs every request a child logger and response listeners even with request
    // logging off (about 6 % of a read call's instructions, measured with callgrind): the server logs
    // through its own pino instance instead (below), and requests through the server's.
    logger: false,
    // One log line per request would cost more than the call itself at evaluation loads.
    logController: new LogController({ disableRequestLogging: true }),
    rewriteUrl: stripSessionPrefix,
    bodyLimit: BODY_LIMIT,
    ...timeoutOptions(options.timeouts ?? DEFAULT_TIMEOUTS),
    routerOptions: { ignoreTrailingSlash: true },
    return503OnClosing: true,
    clientErrorHandler,
    frameworkErrors,
    // Every schema is zod: fastify's own compilers (ajv, fast-json-stringify) would only cost the start.
    // (fastify types these factories after ajv's; they only need to return a compiler.)
    schemaController: { compilersFactory: { buildValidator: (() => validatorCompiler) as never, buildSerializer: (() => serializerCompiler) as never } },
  });
  app.log = serverLogger(options.logger);
  await registerApp(app, options);
  return app;
}

/**
 * Everything the server serves, registered into `app`: the root of the server's own instance, or a user's
 * fastify app (an encapsulated context, under a prefix when given: plugin.ts). The settings of a whole
 * server (timeouts, the router, the logger, `/s/{id}` paths) belong to whoever made the instance.
 */
export async function registerApp(app: FastifyInstance, options: AppOptions): Promise<void> {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  jsonBodyParser(app);

  const registry = new Registry(options.domains);
  // submit_answer records into the session store (made below; only called once both exist).
  const tasks: TaskBook = new TaskBook(options.domains, options.bases, options.taskFiles, options.sessions.compat, (id, answer) =>
    submitAnswer(sessions, sessions.require(id), answer),
  );
  // A task session restored from disk runs the instance its options name (its seed was recorded when it was created),
  // rebuilt synchronously: the book is loaded before any session is restored (below).
  const instanceOf = ({ task, seed }: SessionOptions): TaskInstance | undefined =>
    task === undefined ? undefined : tasks.instance(task, seedOf(seed ?? 0) ?? 0);
  const hazards = options.hazards ?? new HazardEngine({ domains: options.domains });
  // Made before the sessions, so that a session read back from disk finds the mocks' records it changed.
  const attached = new AttachedDatabases();
  const proxies = new Proxies(hazards, new Set(registry.domains.keys()), options.proxies ?? [], options.connectMcp, attached);
  const sessions: SessionStore = new SessionStore({ ...options.sessions, bases: options.bases, instanceOf, attached });
  await app.register(services, { registry, sessions, tasks, hazards });
  await app.register(accessControl, options.access ?? {});
  // Restored task sessions rebuild their instances without waiting: the book's tasks must be loaded first.
  if (options.persistence) await tasks.ready();
  await app.register(sessionLifecycle, { persistence: options.persistence, ttlMs: options.sessions.ttlMs });
  await app.register(errors);
  await app.register(swagger, swaggerOptions);
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // Given here, the plugin does not read its own logo from its folder (which a bundle does not have).
    logo: { type: 'image/svg+xml', content: Buffer.from(LOGO) },
    uiConfig: {
      urls: [
        { url: `${app.prefix}/openapi.json`, name: 'all domains and sessions' },
        ...options.domains.map((d) => ({ url: `${app.prefix}/${d.name}/openapi.json`, name: d.name })),
      ],
    },
  });
  await app.register(metaRoutes);
  await app.register(toolRoutes);
  await app.register(listingRoutes);
  await app.register(sessionRoutes);
  await app.register(hazardRoutes);
  await app.register(taskRoutes);
  await app.register(scoringRoutes);
  // The batches POST /batches made: their reports are listed on the landing page too.
  const batches = new Batches();
  await app.register(batchRoutes, { batches });
  await app.register(viewRoutes);
  await app.register(landingRoutes, { batches });
  await app.register(openapiRoutes);
  await app.register(mcpRoutes, { ttlMs: options.sessions.ttlMs });
  await app.register(openenvRoutes, { prefix: '/openenv', idleMs: options.openenvIdleMs ?? OPENENV_IDLE_MS });
  app.addHook('onClose', () => proxies.close());
  await app.register(proxyAdminRoutes, { proxies, exec: options.proxyExec ?? false });
  await app.register(proxyRoutes, { proxies });
}

/** The server's logger: pino with fastify's options (`stream` included), or one that writes nothing. */
function serverLogger(options: FastifyServerOptions['logger']): FastifyBaseLogger {
  if (!options) return pino({ enabled: false });
  const { stream, ...rest } = (options === true ? {} : options) as { stream?: pino.DestinationStream } & pino.LoggerOptions;
  return stream ? pino(rest, stream) : pino(rest);
}
