import { QuietError } from '../lib/quiet-error.js';

/**
 * Business errors a tool throws. The server turns them into problem JSON (RFC 9457);
 * the transaction they interrupt is discarded, so a failed call never changes the database.
 * `message` keeps the wording of the tau2-bench error where one exists.
 */
export class ToolError extends QuietError {
  constructor(
    readonly status: 400 | 403 | 404 | 409 | 422,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

/** The thing named does not exist. */
export const notFound = (message: string, code = 'not_found') => new ToolError(404, code, message);

/** The thing exists but its state forbids the action (order not pending, seat taken). */
export const conflict = (message: string, code: string) => new ToolError(409, code, message);

/** The arguments are well-formed but break a business rule (invalid reason, balance too low). */
export const rejected = (message: string, code: string) => new ToolError(422, code, message);
