import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { domains } from '../domains/index.js';
import { HazardConfigError } from '../hazards/config.js';
import { hazardsFromEnvironment } from '../hazards/setup.js';
import { generateToken } from './core/access.js';
import { buildApp } from './app.js';
import { type CodePath, FROM_MODULES, startReport } from './code-path.js';
import { type Config, ConfigError, loadConfig } from './core/config.js';
import { FixtureError } from './core/data/base.js';
import { isLoopback } from './core/hosts.js';
import { loadBases } from './core/load.js';
import { SessionOwnership } from './core/sessions/ownership.js';
import { PersistenceError } from './core/sessions/persistence.js';
import { loadProxyConfig, ProxyConfigError } from './proxy/config.js';
import { buildUpstreams, type McpConnector } from './proxy/proxies.js';

/** MCP upstreams are connected by a module loaded when one is declared: a server without one never loads the MCP client. */
const connectMcp: McpConnector = async (name, config) => (await import('./proxy/mcp/connect.js')).connectMcp(name, config);

function fatal(message: string): never {
  process.stderr.write(`wildtools: ${message}\n`);
  process.exit(1);
}

/** A startup step: its value, or a one-line exit naming what was wrong when it fails with a `known` error. */
async function step<T>(work: () => T | Promise<T>, ...known: (abstract new (...args: never[]) => Error)[]): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (known.some((type) => error instanceof type)) fatal((error as Error).message);
    throw error;
  }
}

/**
 * Serves until a signal, configured by `env` (the environment, or `wildtools serve`'s flags over it):
 * a bad setting, an unreadable database or a port taken prints one line naming it and exits 1;
 * SIGINT and SIGTERM close the server and exit 0. `code` says how its code was loaded, for the start line.
 */
export async function launch(env: NodeJS.ProcessEnv, code: CodePath = FROM_MODULES): Promise<FastifyInstance> {
  const { app, config } = await prepare(env, 'stdout', code);
  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      app.log.info(`${signal}: shutting down`);
      app.close().then(
        () => process.exit(0),
        (error: unknown) => {
          app.log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }

  try {
    // Thousands of rollouts connect at once when a batch starts: a queue of 4096 (Linux caps it at somaxconn)
    // instead of Node's 511 keeps their handshakes from being dropped and retried seconds later.
    await app.listen({ port: config.port, host: config.host, backlog: 4096 });
  } catch (error) {
    fatal(`cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`);
  }
  return app;
}

/**
 * The server built from `env`, not yet listening; a bad setting or an unreadable database exits 1.
 * `logTo: 'stderr'` keeps stdout for a protocol (MCP over stdio). It logs the start path it took (code-path.ts).
 */
export async function prepare(
  env: NodeJS.ProcessEnv,
  logTo: 'stdout' | 'stderr' = 'stdout',
  code: CodePath = FROM_MODULES,
): Promise<{ app: FastifyInstance; config: Config }> {
  const config = await step(() => loadConfig(env, domains), ConfigError);
  const proxies =
    config.proxyConfig === undefined
      ? []
      : await step(() => buildUpstreams(loadProxyConfig(config.proxyConfig!), `PROXY_CONFIG=${config.proxyConfig}`, connectMcp), ProxyConfigError);
  const hazards = await step(
    () =>
      hazardsFromEnvironment(
        env,
        domains,
        undefined,
        proxies.map((upstream) => upstream.domain()),
      ),
    HazardConfigError,
  );
  const bases = await step(() => loadBases(domains, config.fixtures), FixtureError);

  const logger: FastifyServerOptions['logger'] = {
    level: config.logLevel,
    ...(logTo === 'stderr' ? { stream: process.stderr } : {}),
    // Pretty lines for a person at a terminal, written in this thread (a pino transport would start a worker).
    ...(logTo === 'stdout' && process.stdout.isTTY
      ? { stream: (await import('pino-pretty')).default({ translateTime: 'HH:MM:ss', ignore: 'pid,hostname' }) }
      : {}),
  };

  // Off loopback, admin routes always need a token: the one set, or one made now and printed once.
  const adminToken = config.adminToken ?? (isLoopback(config.host) ? undefined : generateToken());
  if (adminToken !== undefined && config.adminToken === undefined) {
    process.stderr.write(
      `wildtools: ${config.host} is reachable from other machines, so admin routes (/admin/*, session reset and delete) need this token:\n` +
        `    Authorization: Bearer ${adminToken}\n` +
        '  It was generated for this run; set ADMIN_TOKEN to choose your own.\n',
    );
  }

  const app = await step(
    () =>
      buildApp({
        domains,
        bases,
        logger,
        access: {
          ...(adminToken !== undefined ? { adminToken } : {}),
          ...(config.apiToken !== undefined ? { apiToken: config.apiToken } : {}),
          hosts: { allowed: config.allowedHosts, anyAddress: !isLoopback(config.host) },
        },
        timeouts: config.timeouts,
        openenvIdleMs: config.openenvIdleMs,
        hazards: hazards.engine,
        taskFiles: config.taskFiles,
        proxies,
        proxyExec: config.adminProxyExec,
        connectMcp,
        sessions: {
          ttlMs: config.sessionTtlMs,
          maxSessions: config.maxSessions,
          journalLimit: config.journalLimit,
          journalMemory: config.journalMemory,
          defaultSeed: hazards.seed ?? config.seed,
          compat: config.compat,
          ...(config.cluster ? { ownership: new SessionOwnership(config.cluster.peers, config.cluster.self) } : {}),
        },
        ...(config.dataDir
          ? {
              persistence: {
                dir: config.dataDir,
                intervalMs: config.snapshotIntervalMs,
                checkpointBytes: config.checkpointBytes,
                durability: config.dataFsync ? ('fsync' as const) : ('process' as const),
                recover: config.dataRecover,
              },
            }
          : {}),
      }),
    PersistenceError,
    ConfigError,
  );
  const report = startReport(code, bases);
  app.log.info(report.fields, report.message);

  return { app, config };
}
