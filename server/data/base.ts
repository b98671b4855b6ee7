import { JSONFilePreset } from 'lowdb/node';
import type { z } from 'zod';
import { deepFreeze } from '../../lib/freeze.js';
import type { Domain } from '../../domains/domain.js';
import type { BaseTable } from './overlay.js';

/** A domain's database as loaded at startup: frozen records shared by every session. */
export interface BaseDatabase {
  readonly domain: Domain;
  readonly source: string;
  readonly tables: ReadonlyMap<string, BaseTable>;
}

export class FixtureError extends Error {}

/** Reads a database file with lowdb, validates it, completes it, and freezes it. */
export async function loadBaseDatabase(domain: Domain, path: string): Promise<BaseDatabase> {
  let raw: unknown;
  try {
    raw = (await JSONFilePreset<unknown>(path, null)).data;
  } catch (error) {
    throw new FixtureError(`${path}: cannot read the ${domain.name} database (${(error as Error).message})`);
  }
  if (raw === null) throw new FixtureError(`${path}: file not found or empty`);
  return baseFromFile(domain, raw, path);
}

export function baseFromFile(domain: Domain, raw: unknown, source: string): BaseDatabase {
  const parsed = domain.database.safeParse(raw);
  if (!parsed.success) throw new FixtureError(`${source}: ${describeFirstIssue(parsed.error)}`);
  const file = domain.complete(parsed.data);
  const tables = new Map<string, BaseTable>();
  for (const [name, records] of Object.entries(file)) tables.set(name, new Map(Object.entries(deepFreeze(records))));
  return { domain, source, tables };
}

function describeFirstIssue(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const path = issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)';
  return `invalid value at ${path}: ${issue.message}`;
}
