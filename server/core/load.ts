import { fileURLToPath } from 'node:url';
import type { Domain } from '../../domains/domain.js';
import { type BaseDatabase, loadBaseDatabase } from './data/base.js';

/** Loads each domain's database: the user's file when configured, else the embedded fixture. */
export async function loadBases(domains: readonly Domain[], fixtures: Record<string, string> = {}): Promise<Map<string, BaseDatabase>> {
  const bases = new Map<string, BaseDatabase>();
  for (const domain of domains) {
    const path = fixtures[domain.name] ?? fileURLToPath(domain.fixtureFile);
    bases.set(domain.name, await loadBaseDatabase(domain, path));
  }
  return bases;
}
