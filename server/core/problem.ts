import { ToolError } from '../../domains/errors.js';
import { QuietError } from '../../lib/quiet-error.js';
import { type Problem, problem } from '../../lib/problem.js';

export { invalidInput, PROBLEM_CONTENT_TYPE, type Problem, ProblemSchema, problem, refusalOf } from '../../lib/problem.js';

/** An error that is already a problem response, with optional extra headers. */
export class ProblemError extends QuietError {
  constructor(
    readonly problem: Problem,
    readonly headers: Record<string, string> = {},
  ) {
    super(problem.detail);
  }
}

export const problemError = (status: number, code: string, detail: string, extra: Record<string, unknown> = {}) =>
  new ProblemError(problem(status, code, detail, extra));

/** Any thrown value as a problem; `null` when it is not a client-facing error (a bug). */
export function toProblem(error: unknown): ProblemError | null {
  if (error instanceof ProblemError) return error;
  if (error instanceof ToolError) return new ProblemError(problem(error.status, error.code, error.message, error.extra));
  return null;
}
