import { JSONFile } from 'lowdb/node';
import type { z } from 'zod';
import { readBoundedBytes, UnreadableFileError } from '../../../lib/bounded-file.js';
import { deepFreeze } from '../../../lib/freeze.js';
import type { DatabaseFile, Domain } from '../../../domains/domain.js';
import { preparedData, preparedPath } from './prepared.js';
import type { BaseTable } from './overlay.js';

/** Frozen records by table and id, shared by every session that starts from them. */
export interface DatabaseTables {
  readonly tables: ReadonlyMap<string, BaseTable>;
}

/** A domain's database as loaded at startup: frozen records shared by every session. */
export interface BaseDatabase extends DatabaseTables {
  readonly domain: Domain;
  readonly source: string;
  /** Started from the prepared copy beside its file (made by the build), not validated and completed at start. */
  readonly prepared?: boolean;
}

export class FixtureError extends Error {}

/** Largest database file read: far above any real one, and below the longest string V8 makes. */
export const MAX_DATABASE_BYTES = 256 * 1024 * 1024;

/**
 * Reads a database file (at most MAX_DATABASE_BYTES), validates it, completes it, and freezes it. A prepared copy beside
 * it (made by the build from these very bytes) stands for the validation and the completion.
 */
export async function loadBaseDatabase(domain: Domain, path: string): Promise<BaseDatabase> {
  // The prepared copy is read off the main thread while the file is read on it.
  const preparedRead = new JSONFile<unknown>(preparedPath(path)).read().catch(() => null);
  let content: Buffer;
  try {
    content = readBoundedBytes(path, MAX_DATABASE_BYTES);
  } catch (error) {
    if (!(error instanceof UnreadableFileError)) throw error;
    if (error.code !== 'ENOENT') throw new FixtureError(`${path}: cannot read the ${domain.name} database (${error.message})`);
    content = Buffer.alloc(0);
  }
  const ready = preparedData(domain, content, await preparedRead);
  if (ready) return { ...baseFromData(domain, ready, path), prepared: true };
  const text = content.toString('utf8');
  if (text.trim() === '') throw new FixtureError(`${path}: file not found or empty`);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new FixtureError(`${path}: cannot read the ${domain.name} database (${(error as Error).message})`);
  }
  return baseFromFile(domain, raw, path);
}

export function baseFromFile(domain: Domain, raw: unknown, source: string): BaseDatabase {
  const parsed = domain.database.safeParse(raw);
  if (!parsed.success) throw new FixtureError(`${source}: ${describeFirstIssue(parsed.error)}`);
  return baseFromData(domain, domain.complete(parsed.data), source);
}

/** A base database from a file already validated and completed. */
export function baseFromData(domain: Domain, file: DatabaseFile, source: string): BaseDatabase {
  const tables = new Map<string, BaseTable>();
  for (const [name, records] of Object.entries(file)) tables.set(name, new Map(Object.entries(deepFreeze(records))));
  return { domain, source, tables };
}

function describeFirstIssue(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const path = issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)';
  return `invalid value at ${path}: ${issue.message}`;
}
