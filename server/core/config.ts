import { z } from 'zod';
import type { Domain } from '../../domains/domain.js';
import { COMPAT_MODES, type CompatMode } from '../../domains/tool.js';
import { Flag } from '../../lib/flag.js';
import { envWord } from '../../lib/text.js';
import { DEFAULT_TIMEOUTS, OPENENV_IDLE_MS, type RequestTimeouts } from './timeouts.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Seconds, or a number with a unit: `90`, `90s`, `15m`, `2h`. */
const duration = z
  .string()
  .regex(/^\d+(\.\d+)?\s*(ms|s|m|h)?$/, 'a duration such as 3600, 90s, 15m or 2h')
  .transform((text) => {
    const [, value, unit = 's'] = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/.exec(text)!;
    const factor = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[unit as 'ms' | 's' | 'm' | 'h'];
    return Number(value) * factor;
  });

/** A duration from `min` to `max` milliseconds; `range` says so in the units a person would write. */
const durationIn = (min: number, max: number, range: string) =>
  duration.pipe(z.number().min(min, `a duration from ${range}`).max(max, `a duration from ${range}`));

/** Bytes, or a number with a unit (powers of 1024): `268435456`, `256MB`, `1GiB`. */
const size = z
  .string()
  .regex(/^\d+(\.\d+)?\s*([kmg]i?b?|b)?$/i, 'a size such as 268435456, 512KB, 256MB or 1GB')
  .transform((text) => {
    const [, value, unit = 'b'] = /^(\d+(?:\.\d+)?)\s*([kmg]i?b?|b)?$/i.exec(text)!;
    const power = 'bkmg'.indexOf(unit[0]!.toLowerCase());
    return Math.floor(Number(value) * 1024 ** power);
  })
  .pipe(z.number().int().min(1024, 'a size of at least 1KB'));

/** A bearer token: at least 16 characters, no spaces. */
const token = z.string().regex(/^[\x21-\x7e]{16,}$/, 'a token of at least 16 printable characters without spaces');

/** A host name or IPv4 address, `*.` and a domain (its subdomains), or a bracketed IPv6 address. */
const HOST_PATTERN = String.raw`(?:(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])`;

const hostList = z
  .string()
  .regex(
    new RegExp(String.raw`^\s*${HOST_PATTERN}(?:\s*,\s*${HOST_PATTERN})*\s*$`, 'i'),
    'host names without a port, comma-separated; *.example.com for its subdomains (wildtools.test,*.corp.example)',
  )
  .transform((text) =>
    text
      .trim()
      .toLowerCase()
      .split(/\s*,\s*/),
  );

const integer = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `a whole number from ${min} to ${max}`).max(max, `a whole number from ${min} to ${max}`));

const Environment = z.object({
  PORT: integer(0, 65535).default(8080).describe('port to listen on (0: any free port)'),
  HOST: z.string().min(1).default('127.0.0.1').describe('address to bind'),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info').describe(LOG_LEVELS.join(', ')),
  DATA_DIR: z.string().min(1).optional().describe('keep sessions in this folder across restarts'),
  SESSION_TTL: durationIn(1000, 8760 * 3_600_000, '1s to 8760h')
    .default(3_600_000)
    .describe('idle time before a session expires: seconds, or 90s, 15m, 2h'),
  MAX_SESSIONS: integer(1, 1_000_000).default(1000).describe('sessions at once, default not counted'),
  JOURNAL_LIMIT: integer(1, 10_000_000).default(10_000).describe('journal entries kept per session'),
  JOURNAL_MEMORY: size.default(256 * 1024 * 1024).describe('size of all journals together, as JSON (512MB, 1GB)'),
  SNAPSHOT_INTERVAL: durationIn(10, 3_600_000, '10ms to 1h').default(1000).describe("with DATA_DIR, how often the log's size is checked for a checkpoint"),
  CHECKPOINT_BYTES: size.default(16 * 1024 * 1024).describe('log size from which changed sessions are snapshotted'),
  DATA_FSYNC: Flag.default(false).describe('1: acknowledge a change only once it is on the disk'),
  ADMIN_PROXY_EXEC: Flag.default(false).describe(
    '1: PUT /admin/proxies/{name} may also start MCP commands, read openapi files and fetch documents from any host',
  ),
  DATA_RECOVER: z
    .enum(['stop', 'quarantine'])
    .default('stop')
    .describe('on damaged data in DATA_DIR: stop the start naming it, or set the sessions concerned aside (DATA_DIR/quarantine)'),
  HAZARD_SEED: z.string().max(128).default('0').describe('seed of the hazard schedule, for sessions created without one'),
  ADMIN_TOKEN: token.optional().describe('bearer token for the admin routes'),
  API_TOKEN: token.optional().describe('bearer token for every other route but /health and /docs'),
  ALLOWED_HOSTS: hostList
    .optional()
    .describe('without API_TOKEN, the host names requests may carry (Host) besides loopback ones: comma-separated, *.example.com for subdomains'),
  REQUEST_TIMEOUT: durationIn(100, 3_600_000, '100ms to 1h')
    .default(DEFAULT_TIMEOUTS.requestMs)
    .describe('time a client has to send a whole request, body included (408 after)'),
  HEADERS_TIMEOUT: durationIn(100, 3_600_000, '100ms to 1h')
    .default(DEFAULT_TIMEOUTS.headersMs)
    .describe("time a client has to send a request's headers, at most REQUEST_TIMEOUT"),
  OPENENV_IDLE_TIMEOUT: durationIn(1000, 86_400_000, '1s to 24h')
    .default(OPENENV_IDLE_MS)
    .describe('an OpenEnv WebSocket without a message for this long is closed, and its place freed'),
  PROXY_CONFIG: z.string().min(1).optional().describe('a JSON or YAML file of upstreams to serve under /proxy/{name}/ with hazards'),
  CLUSTER_PEERS: z
    .string()
    .regex(/^[^\s,]+(,[^\s,]+)*$/, 'the replicas as the load balancer names them, comma-separated (10.0.0.5:8080,10.0.0.6:8080)')
    .optional()
    .describe('behind nginx hashing session ids: every replica, as the upstream block names them, in its order'),
  CLUSTER_SELF: z.string().min(1).optional().describe("this replica's entry in CLUSTER_PEERS"),
  TAU2_COMPAT: z
    .enum(COMPAT_MODES, { error: COMPAT_MODES.join(' or ') })
    .default('off')
    .describe("strict: reproduce tau2-bench's known modify_pending_order_items bug too"),
});

/** The variables the server reads, besides FIXTURE_<DOMAIN>, TASKS_<DOMAIN> and the hazards': name → what it sets. */
export const CONFIG_VARIABLES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(Environment.shape).map(([name, schema]) => [name, schema.description ?? '']),
);

/** The variable naming a domain's database file: `FIXTURE_SMART_HOME`. */
export const fixtureVariable = (domain: string): string => `FIXTURE_${envWord(domain)}`;

/** The variable naming a tau2-bench tasks.json for a domain: `TASKS_RETAIL`. */
export const tasksVariable = (domain: string): string => `TASKS_${envWord(domain)}`;

export interface Config {
  port: number;
  host: string;
  logLevel: (typeof LOG_LEVELS)[number];
  dataDir: string | undefined;
  sessionTtlMs: number;
  maxSessions: number;
  journalLimit: number;
  /** Bytes (as JSON) all journals together may hold. */
  journalMemory: number;
  snapshotIntervalMs: number;
  /** CHECKPOINT_BYTES: the log size from which changed sessions are snapshotted and the log dropped. */
  checkpointBytes: number;
  /** DATA_FSYNC: acknowledge a write only once fdatasync has put it on the disk. */
  dataFsync: boolean;
  /** DATA_RECOVER: what a start does on damaged data. */
  dataRecover: 'stop' | 'quarantine';
  /** ADMIN_PROXY_EXEC: admin calls may declare what only PROXY_CONFIG may otherwise (commands, files, any host). */
  adminProxyExec: boolean;
  seed: string;
  /** ADMIN_TOKEN: the bearer token admin routes require. */
  adminToken: string | undefined;
  /** API_TOKEN: the bearer token every other route but /health and /docs requires. */
  apiToken: string | undefined;
  /** TAU2_COMPAT: `strict` makes tools reproduce their reference benchmark's known bugs too. */
  compat: CompatMode;
  /** ALLOWED_HOSTS: host names requests may name besides loopback ones, when no API_TOKEN guards the routes. */
  allowedHosts: string[];
  /** REQUEST_TIMEOUT and HEADERS_TIMEOUT: how long a client may take to send a request. */
  timeouts: RequestTimeouts;
  /** OPENENV_IDLE_TIMEOUT: how long an OpenEnv WebSocket may stay without a message. */
  openenvIdleMs: number;
  /** PROXY_CONFIG: the file declaring the upstreams served under /proxy/{name}/. */
  proxyConfig: string | undefined;
  /** CLUSTER_PEERS and CLUSTER_SELF: the replicas behind a load balancer hashing session ids, and this one. */
  cluster: { peers: string[]; self: string } | undefined;
  /** Database file per domain name, from FIXTURE_<DOMAIN>; the embedded default otherwise. */
  fixtures: Record<string, string>;
  /** tau2-bench tasks.json per domain name, from TASKS_<DOMAIN>: its tasks replace the embedded ones. */
  taskFiles: Record<string, string>;
}

/** The value of `variable(domain)` for each domain that has one; a variable of that prefix naming no domain is a ConfigError. */
function perDomain(present: Record<string, string | undefined>, domains: readonly Domain[], variable: (domain: string) => string, prefix: string) {
  const found: Record<string, string> = {};
  for (const domain of domains) {
    const value = present[variable(domain.name)];
    if (value) found[domain.name] = value;
  }
  const known = new Set(domains.map((d) => variable(d.name)));
  const unknown = Object.keys(present).find((name) => name.startsWith(prefix) && !known.has(name));
  if (unknown) throw new ConfigError(`Unknown ${unknown}: the domains are ${domains.map((d) => d.name).join(', ')}`);
  return found;
}

export class ConfigError extends Error {}

/** Reads the configuration; a bad value is a ConfigError naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv, domains: readonly Domain[]): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = Environment.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0]);
    throw new ConfigError(`Invalid ${name}=${JSON.stringify(present[name] ?? '')}: expected ${issue.message}`);
  }
  const fixtures = perDomain(present, domains, fixtureVariable, 'FIXTURE_');
  const taskFiles = perDomain(present, domains, tasksVariable, 'TASKS_');
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    logLevel: e.LOG_LEVEL,
    dataDir: e.DATA_DIR,
    sessionTtlMs: e.SESSION_TTL,
    maxSessions: e.MAX_SESSIONS,
    journalLimit: e.JOURNAL_LIMIT,
    journalMemory: e.JOURNAL_MEMORY,
    snapshotIntervalMs: e.SNAPSHOT_INTERVAL,
    checkpointBytes: e.CHECKPOINT_BYTES,
    dataFsync: e.DATA_FSYNC,
    dataRecover: e.DATA_RECOVER,
    adminProxyExec: e.ADMIN_PROXY_EXEC,
    seed: e.HAZARD_SEED,
    adminToken: e.ADMIN_TOKEN,
    apiToken: e.API_TOKEN,
    allowedHosts: e.ALLOWED_HOSTS ?? [],
    timeouts: timeoutsOf(e.REQUEST_TIMEOUT, e.HEADERS_TIMEOUT, present['HEADERS_TIMEOUT']),
    openenvIdleMs: e.OPENENV_IDLE_TIMEOUT,
    compat: e.TAU2_COMPAT,
    proxyConfig: e.PROXY_CONFIG,
    cluster: clusterOf(e.CLUSTER_PEERS, e.CLUSTER_SELF),
    fixtures,
    taskFiles,
  };
}

/** The headers' time is part of the request's: one set longer is an error, the default is shortened to fit. */
function timeoutsOf(requestMs: number, headersMs: number, headersSet: string | undefined): RequestTimeouts {
  if (headersSet !== undefined && headersMs > requestMs)
    throw new ConfigError(`Invalid HEADERS_TIMEOUT=${JSON.stringify(headersSet)}: expected at most REQUEST_TIMEOUT, the time for the whole request`);
  return { requestMs, headersMs: Math.min(headersMs, requestMs) };
}

function clusterOf(peers: string | undefined, self: string | undefined): Config['cluster'] {
  if (peers === undefined && self === undefined) return undefined;
  if (peers === undefined || self === undefined) throw new ConfigError('CLUSTER_PEERS and CLUSTER_SELF go together: set both, or neither');
  const list = peers.split(',');
  const repeated = list.find((peer, i) => list.indexOf(peer) !== i);
  if (repeated) throw new ConfigError(`Invalid CLUSTER_PEERS: ${repeated} is listed twice`);
  if (!list.includes(self)) throw new ConfigError(`Invalid CLUSTER_SELF=${JSON.stringify(self)}: expected one of CLUSTER_PEERS (${list.join(', ')})`);
  return { peers: list, self };
}
