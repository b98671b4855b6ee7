import { z } from 'zod';
import { ToolError } from '../domains/errors.js';
import { QuietError } from '../lib/quiet-error.js';

/** RFC 9457 problem details, with our extension members. */
export const ProblemSchema = z
  .object({
    type: z.string().describe('A URI reference naming the kind of problem.'),
    title: z.string().describe('Short summary of the kind of problem.'),
    status: z.number().int().describe('The HTTP status code.'),
    detail: z.string().describe('What went wrong in this case, and how to fix it.'),
    code: z.string().optional().describe('Machine-readable reason, stable across versions.'),
    errors: z
      .array(z.object({ field: z.string(), message: z.string() }))
      .optional()
      .describe('For invalid input: each offending field and what was expected.'),
  })
  .catchall(z.unknown())
  .describe('application/problem+json');
export type Problem = z.infer<typeof ProblemSchema>;

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  401: 'Unauthorized',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** An error that is already a problem response, with optional extra headers. */
export class ProblemError extends QuietError {
  constructor(
    readonly problem: Problem,
    readonly headers: Record<string, string> = {},
  ) {
    super(problem.detail);
  }
}

export function problem(status: number, code: string, detail: string, extra: Record<string, unknown> = {}): Problem {
  return { type: `/problems/${code.replaceAll('_', '-')}`, title: TITLES[status] ?? 'Error', status, detail, code, ...extra };
}

export const problemError = (status: number, code: string, detail: string, extra: Record<string, unknown> = {}) =>
  new ProblemError(problem(status, code, detail, extra));

/** Problem for arguments that do not match a schema: names each field and what it expected. */
export function invalidInput(error: z.ZodError, where = 'arguments'): Problem {
  const errors = error.issues.map((issue) => ({ field: fieldOf(issue, where), message: messageOf(issue) }));
  const detail = errors.map((e) => `${e.field}: ${e.message}`).join('; ');
  return problem(400, 'invalid_input', `Invalid ${where}: ${detail}`, { errors });
}

function fieldOf(issue: z.core.$ZodIssue, where: string): string {
  const path = issue.path.map(String);
  if (issue.code === 'unrecognized_keys') return [...path, ...issue.keys].join('.') || where;
  return path.join('.') || where;
}

function messageOf(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `'${k}'`).join(', ')}`;
    case 'invalid_type':
      return issue.input === undefined ? `required (expected ${issue.expected})` : `expected ${issue.expected}, got ${describe(issue.input)}`;
    default:
      return issue.message;
  }
}

const describe = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** Any thrown value as a problem; `null` when it is not a client-facing error (a bug). */
export function toProblem(error: unknown): ProblemError | null {
  if (error instanceof ProblemError) return error;
  if (error instanceof ToolError) return new ProblemError(problem(error.status, error.code, error.message, error.extra));
  return null;
}
