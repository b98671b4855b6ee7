import { z } from 'zod';
import type { Domain } from '../domains/domain.js';
import { COMPAT_MODES, type CompatMode } from '../domains/tool.js';
import { Flag } from '../lib/flag.js';
import { envWord } from '../lib/text.js';

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

const integer = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `a whole number from ${min} to ${max}`).max(max, `a whole number from ${min} to ${max}`));

const Environment = z.object({
  PORT: integer(0, 65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  DATA_DIR: z.string().min(1).optional(),
  SESSION_TTL: duration.default(3_600_000),
  MAX_SESSIONS: integer(1, 1_000_000).default(1000),
  JOURNAL_LIMIT: integer(1, 10_000_000).default(10_000),
  JOURNAL_MEMORY: size.default(256 * 1024 * 1024),
  SNAPSHOT_INTERVAL: duration.default(1000),
  CHECKPOINT_BYTES: size.default(16 * 1024 * 1024),
  DATA_FSYNC: Flag.default(false),
  HAZARD_SEED: z.string().max(128).default('0'),
  ADMIN_TOKEN: token.optional(),
  API_TOKEN: token.optional(),
  TAU2_COMPAT: z.enum(COMPAT_MODES, { error: COMPAT_MODES.join(' or ') }).default('off'),
});

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
  seed: string;
  /** ADMIN_TOKEN: the bearer token admin routes require. */
  adminToken: string | undefined;
  /** API_TOKEN: the bearer token every other route but /health and /docs requires. */
  apiToken: string | undefined;
  /** TAU2_COMPAT: `strict` makes tools reproduce their reference benchmark's known bugs too. */
  compat: CompatMode;
  /** Database file per domain name, from FIXTURE_<DOMAIN>; the embedded default otherwise. */
  fixtures: Record<string, string>;
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
  const fixtures: Record<string, string> = {};
  for (const domain of domains) {
    const value = present[`FIXTURE_${envWord(domain.name)}`];
    if (value) fixtures[domain.name] = value;
  }
  const known = new Set(domains.map((d) => `FIXTURE_${envWord(d.name)}`));
  const unknown = Object.keys(present).find((name) => name.startsWith('FIXTURE_') && !known.has(name));
  if (unknown) throw new ConfigError(`Unknown ${unknown}: the domains are ${domains.map((d) => d.name).join(', ')}`);
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
    seed: e.HAZARD_SEED,
    adminToken: e.ADMIN_TOKEN,
    apiToken: e.API_TOKEN,
    compat: e.TAU2_COMPAT,
    fixtures,
  };
}
