import type { DatabaseFile, Domain } from '../../../domains/domain.js';
import { type FileStamp, sameContent, stampOf } from '../../../lib/file-stamp.js';

/**
 * A database as the server starts from it — validated and completed — written beside its file by the build
 * (`<name>.prepared.json`), so that starting with the embedded databases costs a parse instead of a
 * validation and a derivation (two thirds of a cold start, measured). It names the file it was made from by
 * its content (size and SHA-256, lib/file-stamp.ts), and is used only while the file still holds those bytes.
 */
export interface PreparedDatabase {
  readonly domain: string;
  readonly source: FileStamp;
  readonly data: DatabaseFile;
}

export const preparedPath = (path: string): string => path.replace(/(\.json)?$/, '.prepared.json');

/** The prepared form of a database file's bytes: validated (a ZodError when invalid) and completed. */
export function prepare(domain: Domain, content: Buffer): PreparedDatabase {
  return { domain: domain.name, source: stampOf(content), data: domain.complete(domain.database.parse(JSON.parse(content.toString('utf8')))) };
}

/** Whether `prepared` (of any shape) is a prepared copy of this domain with data: worth hashing its file for. */
function preparedCandidate(domain: Domain, prepared: unknown): prepared is PreparedDatabase {
  const candidate = prepared as Partial<PreparedDatabase> | null;
  return candidate?.domain === domain.name && typeof candidate.data === 'object' && candidate.data !== null;
}

/** The prepared data when `prepared` was made for this domain from these bytes (the file as it is now); undefined otherwise. */
export function preparedData(domain: Domain, content: Buffer, prepared: unknown): DatabaseFile | undefined {
  return preparedCandidate(domain, prepared) && sameContent(prepared.source, content) ? prepared.data : undefined;
}
