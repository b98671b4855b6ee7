import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { domains } from '../../domains/index.js';
import { loadConfig } from '../../server/core/config.js';
import { loadBases } from '../../server/core/load.js';
import { envWord } from '../../lib/text.js';
import { startServer, type TestServer } from './server.js';

// Helpers of the tau2-bench parity tests: files in tau2-bench's format served the way a user's are,
// and the state compared as tau2-bench compares it (a hash of the JSON with sorted keys).

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** JSON with every object's keys sorted, at every depth (tau2-bench hashes `json.dumps(..., sort_keys=True)`). */
function canonicalJson(value: unknown): string {
  const sort = (v: unknown): Json => {
    if (Array.isArray(v)) return v.map(sort);
    if (v !== null && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((key) => [key, sort((v as Record<string, unknown>)[key])]),
      );
    }
    return v as Json;
  };
  return JSON.stringify(sort(value));
}

export const stateHash = (value: unknown): string => createHash('sha256').update(canonicalJson(value)).digest('hex');

/** The tables of a database tau2-bench has (our extra tables left out). */
export const tau2Tables = (state: Record<string, unknown>, names: readonly string[]): Record<string, unknown> =>
  Object.fromEntries(names.map((name) => [name, state[name]]));

/**
 * A server started as a user starts one on their own files: each file written to disk and named by
 * FIXTURE_<DOMAIN>, the configuration read from the environment (with `env`, e.g. TAU2_COMPAT), then loaded.
 */
export async function serveFiles(
  t: { testdir(files: Record<string, string>): string; teardown(fn: () => unknown): void },
  files: Record<string, unknown>,
  env: NodeJS.ProcessEnv = {},
): Promise<TestServer> {
  const dir = t.testdir(Object.fromEntries(Object.entries(files).map(([domain, db]) => [`${domain}.json`, JSON.stringify(db, null, 2)])));
  const fixtures = Object.fromEntries(Object.keys(files).map((domain) => [`FIXTURE_${envWord(domain)}`, join(dir, `${domain}.json`)]));
  const config = loadConfig({ ...env, ...fixtures }, domains);
  const served = domains.filter((domain) => domain.name in config.fixtures);
  return startServer(t, { bases: await loadBases(served, config.fixtures), sessions: { compat: config.compat } });
}
