import { z } from 'zod';
import { withoutStackTrace } from './quiet-error.js';

// Problem details (RFC 9457): the one shape every error answer takes, built here for the server and
// for hazards that answer in the API's own voice.

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
  421: 'Misdirected Request',
  422: 'Unprocessable Content',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function problem(status: number, code: string, detail: string, extra: Record<string, unknown> = {}): Problem {
  return { type: `/problems/${code.replaceAll('_', '-')}`, title: TITLES[status] ?? 'Error', status, detail, code, ...extra };
}

/**
 * Why a schema refuses a value (with the refused input in each issue). A ZodError is an Error: its stack
 * trace, which nobody reads, was most of what an invalid call cost, so none is captured.
 */
export function refusalOf(schema: z.ZodType, value: unknown): z.ZodError | undefined {
  return withoutStackTrace(() => schema.safeParse(value, { reportInput: true }).error);
}

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
