import type { Stats } from 'node:fs';
import type { DatabaseFile, Domain } from '../../../domains/domain.js';
import { type FileStamp, sameFile, stampOf } from '../../../lib/file-stamp.js';

/**
 * A database as the server starts from it — validated and completed — written beside its file by the build
 * (`<name>.prepared.json`), so that starting with the embedded databases costs a parse instead of a
 * validation and a derivation (two thirds of a cold start, measured). It names the file it was made from by
 * its size and modification time, and is used only while the file still has both.
 */
export interface PreparedDatabase {
  readonly domain: string;
  readonly source: FileStamp;
  readonly data: DatabaseFile;
}

export const preparedPath = (path: string): string => path.replace(/(\.json)?$/, '.prepared.json');

/** The prepared form of a database file (its text and its stat): validated (a ZodError when invalid) and completed. */
export function prepare(domain: Domain, text: string, file: Pick<Stats, 'size' | 'mtimeMs'>): PreparedDatabase {
  return { domain: domain.name, source: stampOf(file), data: domain.complete(domain.database.parse(JSON.parse(text))) };
}

/** The prepared data when `prepared` was made for this domain from the file as it is now; undefined otherwise. */
export function preparedData(domain: Domain, file: Pick<Stats, 'size' | 'mtimeMs'>, prepared: unknown): DatabaseFile | undefined {
  const candidate = prepared as Partial<PreparedDatabase> | null;
  if (candidate?.domain !== domain.name || !sameFile(candidate.source, file) || typeof candidate.data !== 'object' || candidate.data === null) return undefined;
  return candidate.data;
}
