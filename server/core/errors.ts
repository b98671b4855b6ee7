import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { nearMatches } from '../../lib/text.js';
import { closeUpgradeWhenAnswered } from './upgrade.js';
import { sessionIdOf } from './session-id.js';
import type { Session } from './sessions/session.js';
import { journalUnknownTool } from './unknown-call.js';
import { BODY_LIMIT } from './json-body.js';
import { PROBLEM_CONTENT_TYPE, type Problem, ProblemError, problem, toProblem } from './problem.js';

export function sendProblem(reply: FastifyReply, failure: ProblemError): FastifyReply {
  return reply.code(failure.problem.status).headers(failure.headers).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(failure.problem));
}

/** Every error and every unknown route answers in problem JSON; only bugs answer 500. */
export const errors = fp(
  async (app) => {
    app.setErrorHandler((error: FastifyError, request, reply) => sendProblem(reply, asProblem(error, request)));
    app.setNotFoundHandler((request, reply) => {
      closeUpgradeWhenAnswered(request, reply);
      return sendProblem(reply, notFound(request));
    });
  },
  { name: 'errors', dependencies: ['services'] },
);

function asProblem(error: FastifyError, request: FastifyRequest): ProblemError {
  const known = toProblem(error);
  if (known) return known;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const where = error.validationContext ?? 'request';
    const errors = error.validation.map((v) => ({ field: fieldName(v.instancePath, v.params) || where, message: v.message }));
    const detail = `Invalid ${where}: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`;
    return new ProblemError(problem(400, 'invalid_input', detail, { errors }));
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return clientProblem(error, status);
  request.server.log.error({ err: error, reqId: request.id }, 'request failed');
  return new ProblemError(problem(500, 'internal_error', 'The server failed to handle the request; it has been logged.'));
}

function fieldName(instancePath: string, params: Record<string, unknown>): string {
  const path = instancePath.split('/').filter(Boolean);
  const keys = Array.isArray(params['keys']) ? (params['keys'] as string[]) : [];
  return [...path, ...keys].join('.');
}

const CLIENT_CODES: Record<string, [code: string, detail: string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['unsupported_media_type', 'Send the arguments as a JSON object with Content-Type: application/json.'],
  FST_ERR_CTP_BODY_TOO_LARGE: ['body_too_large', `The body is larger than ${BODY_LIMIT / 1_048_576} MiB, the limit.`],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['invalid_content_length', 'Content-Length does not match the body.'],
};

function clientProblem(error: FastifyError, status: number): ProblemError {
  const [code, detail] = CLIENT_CODES[error.code] ?? ['bad_request', error.message];
  return new ProblemError(problem(status, code, detail));
}

/** 404 for a tool a domain (or the combined view, when `domainName` is undefined) does not have. */
export function unknownTool(app: FastifyInstance, domainName: string | undefined, toolName: string): ProblemError {
  const tools = domainName === undefined ? app.registry.combined : app.registry.byDomain.get(domainName)!;
  const where = domainName === undefined ? 'the combined view' : `domain '${domainName}'`;
  const suggestions = nearMatches(toolName, tools.keys());
  const hint = suggestions.length > 0 ? ` Did you mean ${suggestions.map((s) => `'${s}'`).join(', ')}?` : '';
  return new ProblemError(
    problem(404, 'unknown_tool', `No tool '${toolName}' in ${where}.${hint} GET ${domainName ? `/${domainName}` : ''}/tools lists them.`, { suggestions }),
  );
}

/** A call of a tool the view does not have: journaled in the session like any call (server/core/unknown-call.ts), answered 404. */
export function unknownToolCall(
  app: FastifyInstance,
  session: Session,
  domainName: string | undefined,
  toolName: string,
  args: unknown,
  argsBytes?: number,
): ProblemError {
  const failure = unknownTool(app, domainName, toolName);
  journalUnknownTool(app, session, failure, domainName, toolName, args, argsBytes);
  return failure;
}

const TOOL_PATH = /^\/(?:([^/]+)\/)?tools\/([^/?]+)\/?(?:\?.*)?$/;

function notFound(request: FastifyRequest): ProblemError {
  const { registry, prefix } = request.server;
  // Served under a prefix (embedded: plugin.ts), the paths are read as the server's own.
  const url = prefix && request.url.startsWith(prefix) ? request.url.slice(prefix.length) || '/' : request.url;
  const toolMatch = TOOL_PATH.exec(url);
  if (toolMatch) {
    const [, domainName, toolName = ''] = toolMatch;
    const tools = domainName === undefined ? registry.combined : registry.byDomain.get(domainName);
    if (tools) {
      if (tools.has(toolName)) {
        return new ProblemError(problem(405, 'method_not_allowed', `Call tools with POST and a JSON body of arguments.`), { allow: 'POST' });
      }
      // A POST is a call, journaled in the session it addresses; anything else only asks where the tool is.
      if (request.method !== 'POST') return unknownTool(request.server, domainName, toolName);
      const session = request.server.sessions.resolve(sessionIdOf(request));
      return unknownToolCall(request.server, session, domainName, toolName, request.body ?? {}, bodyBytes(request));
    }
  }
  const first = url.split(/[/?]/)[1] ?? '';
  const domainNames = [...registry.domains.keys()];
  if (first && !registry.domains.has(first) && !STATIC_ROOTS.has(first)) {
    const suggestions = nearMatches(first, domainNames);
    return new ProblemError(
      problem(404, 'unknown_domain', `No domain or route '/${first}'. The domains are ${domainNames.join(', ')}; GET /domains lists them.`, { suggestions }),
    );
  }
  return new ProblemError(problem(404, 'not_found', `No route ${request.method} ${request.url}. See GET /openapi.json or /docs.`) as Problem);
}

const STATIC_ROOTS = new Set(['sessions', 'tools', 'domains', 'health', 'openapi.json', 'docs', 'hazards', 'admin']);

/** The size of a body as sent, from Content-Length (absent for a chunked body). */
export function bodyBytes(request: FastifyRequest): number | undefined {
  const length = request.headers['content-length'];
  return length === undefined ? undefined : Number(length);
}
