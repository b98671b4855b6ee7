import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';

// Errors as RFC 9457 problem details (application/problem+json), a validation error naming its fields.

export interface FieldError {
  /** The field, as a dotted path (`email`, `limit`), or `(body)` for the body as a whole. */
  field: string;
  message: string;
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: FieldError[];
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  409: 'Conflict',
  415: 'Unsupported Media Type',
  500: 'Internal Server Error',
};

export class HttpProblem extends Error {
  readonly problem: Problem;

  constructor(status: number, kind: string, detail: string, errors?: FieldError[]) {
    super(detail);
    this.problem = { type: `/problems/${kind}`, title: TITLES[status] ?? 'Error', status, detail, ...(errors ? { errors } : {}) };
  }
}

export const notFound = (what: string, id: string): HttpProblem => new HttpProblem(404, 'not-found', `No ${what} with id '${id}'.`);

/** The fields a schema refused, one entry per issue. */
function fieldErrors(issues: readonly z.core.$ZodIssue[]): FieldError[] {
  return issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => ({ field: [...issue.path, key].join('.'), message: 'Unknown field.' }));
    return [{ field: issue.path.length > 0 ? issue.path.join('.') : '(body)', message: issue.message }];
  });
}

/** The input parsed by the schema, or a 400 problem naming each field it refused. */
export function parse<S extends z.ZodType>(schema: S, input: unknown, where: 'body' | 'query'): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const errors = fieldErrors(result.error.issues);
  const detail = errors.map((error) => `${error.field}: ${error.message}`).join('; ');
  throw new HttpProblem(400, 'invalid-input', `Invalid ${where}: ${detail}`, errors);
}

export function sendProblem(reply: FastifyReply, problem: Problem): FastifyReply {
  return reply.code(problem.status).type('application/problem+json').send(problem);
}

/** Every error as a problem: ours as thrown, fastify's (bad JSON, wrong content type) with its own status. */
export function errorHandler(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof HttpProblem) return sendProblem(reply, error.problem);
  const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
  const detail = status === 500 ? 'The server failed to answer.' : error.message;
  return sendProblem(reply, new HttpProblem(status, status === 500 ? 'internal' : 'bad-request', detail).problem);
}
