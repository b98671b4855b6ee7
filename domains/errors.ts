import type { CatalogEntry } from '../lib/error-catalog.js';
import { QuietError } from '../lib/quiet-error.js';

/** The statuses a broken rule of a domain answers with. */
export type ToolStatus = 400 | 403 | 404 | 409 | 422;

/** An entry of a domain's error catalog (domains/<domain>/errors.ts). */
export type ToolErrorEntry = CatalogEntry<string, ToolStatus>;

/**
 * Business errors a tool throws. The server turns them into problem JSON (RFC 9457);
 * the transaction they interrupt is discarded, so a failed call never changes the database.
 * `message` keeps the wording of the tau2-bench error where one exists.
 */
export class ToolError extends QuietError {
  constructor(
    readonly status: ToolStatus,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

type Options<Entry extends ToolErrorEntry> = Entry['status'] extends readonly (infer Status)[]
  ? [options: { status: Status; extra?: Record<string, unknown> }]
  : [options?: { extra?: Record<string, unknown> }];

/**
 * The error of a broken rule, by its catalog entry: its code and status come from the catalog, so a code that
 * is not in it does not compile. A code listed with several statuses names the one this refusal answers with.
 */
export function toolError<const Entry extends ToolErrorEntry>(entry: Entry, message: string, ...[options]: Options<Entry>): ToolError {
  const chosen = options && 'status' in options ? options.status : entry.status;
  if (typeof chosen !== 'number') throw new TypeError(`${entry.code} answers with several statuses: name one`);
  return new ToolError(chosen as ToolStatus, entry.code, message, options?.extra);
}
