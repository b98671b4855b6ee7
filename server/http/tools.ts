import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Domain } from '../../domains/domain.js';
import type { AnyTool } from '../../domains/tool.js';
import { bodyBytes, sendProblem, unknownToolCall } from '../core/errors.js';
import { sendFault } from '../core/fault-reply.js';
import { callTool } from '../core/call.js';
import type { CallOutcome } from '../core/pipeline.js';
import { bodyExample, HONOURS_SESSION_HEADER } from '../core/openapi.js';
import { PROBLEM_CONTENT_TYPE } from '../core/problem.js';
import { TOOL_PROBLEMS, toolErrorsMark } from '../core/problem-responses.js';
import type { ToolEntry } from '../core/registry.js';
import { JSON_TYPE, sendJsonText } from '../core/reply.js';
import { sessionIdOf } from '../core/session-id.js';
import { SUBMIT_ANSWER } from '../core/tasks/answer-tool.js';
import { combinedDecoys, type ToolView } from '../core/tool-views.js';

// Validation happens inside the call pipeline (after before-call hazards, and journaled like
// every call), so the route's schema documents the body without fastify checking it.
const documentOnly = () => (data: unknown) => ({ value: data });

/** One POST route per tool and domain, plus one per tool in the combined view. */
export async function toolRoutes(app: FastifyInstance): Promise<void> {
  for (const domain of app.registry.domains.values()) {
    for (const entry of app.registry.entries(domain.name)) {
      route(app, `/${domain.name}/tools/${entry.tool.name}`, entry, entry.tool.name, domain.name);
    }
  }
  for (const [name, entry] of app.registry.combined) route(app, `/tools/${name}`, entry, name, 'combined');
  for (const domain of app.registry.domains.values()) {
    for (const scenario of domain.hazards ?? []) if (scenario.kind === 'lookalike') decoyRoute(app, domain, scenario.decoy, domain.name, scenario.decoy.name);
  }
  for (const { domain, tool, combinedName } of combinedDecoys(app.registry).values()) decoyRoute(app, domain, tool, undefined, combinedName);
  for (const view of app.views) answerRoute(app, view);
}

/** submit_answer: a tool only a task session has (its input is the task's answer); elsewhere it does not exist. */
function answerRoute(app: FastifyInstance, view: ToolView): void {
  app.post(`${view.prefix}/tools/${SUBMIT_ANSWER}`, {
    schema: { hide: true },
    handler(request, reply) {
      const session = app.sessions.resolve(sessionIdOf(request));
      const found = view.resolve(SUBMIT_ANSWER, session);
      if (!found)
        return sendProblem(
          reply,
          unknownToolCall(app, session, view.prefix === '' ? undefined : view.name, SUBMIT_ANSWER, request.body ?? {}, bodyBytes(request)),
        );
      const outcome = callTool(app, session, found.domain, found.tool, request.body ?? {}, bodyBytes(request));
      return outcome instanceof Promise ? outcome.then((done) => send(request, reply, done)) : send(request, reply, outcome);
    },
  });
}

/**
 * A lookalike's decoy, in its domain's view (`view` the domain's name) or the combined one (`view` undefined):
 * callable only in sessions where it is listed; otherwise it does not exist.
 */
function decoyRoute(app: FastifyInstance, domain: Domain, decoy: AnyTool, view: string | undefined, name: string): void {
  app.post(`${view === undefined ? '' : `/${view}`}/tools/${name}`, {
    schema: { hide: true },
    handler(request, reply) {
      const session = app.sessions.resolve(sessionIdOf(request));
      // A decoy that is not listed does not exist: a call of it is a call of an unknown tool, journaled as any other.
      if (!app.hazards.decoyActive(session, domain.name, decoy.name))
        return sendProblem(reply, unknownToolCall(app, session, view, name, request.body ?? {}, bodyBytes(request)));
      const outcome = callTool(app, session, domain, decoy, request.body ?? {}, bodyBytes(request));
      return outcome instanceof Promise ? outcome.then((done) => send(request, reply, done)) : send(request, reply, outcome);
    },
  });
}

function route(app: FastifyInstance, url: string, entry: ToolEntry, operationId: string, tag: string): void {
  const { domain, tool } = entry;
  app.post(url, {
    schema: {
      operationId,
      summary: tool.description.split(/(?<=\.)\s/)[0],
      description: tool.description,
      tags: [tag],
      body: tool.input,
      response: { 200: tool.output.describe('The result of the call.'), ...TOOL_PROBLEMS },
      ...HONOURS_SESSION_HEADER,
      ...toolErrorsMark(tool.errors),
      ...bodyExample(tool.example),
    },
    validatorCompiler: documentOnly,
    handler(request, reply) {
      const session = app.sessions.resolve(sessionIdOf(request));
      const outcome = callTool(app, session, domain, tool, request.body ?? {}, bodyBytes(request));
      return outcome instanceof Promise ? outcome.then((done) => send(request, reply, done)) : send(request, reply, outcome);
    },
  });
}

function send(request: FastifyRequest, reply: FastifyReply, { status, headers, text, fault }: CallOutcome): FastifyReply {
  if (fault) return sendFault(request, reply, fault, text);
  reply.code(status).headers(headers);
  return sendJsonText(reply, text, status < 400 ? JSON_TYPE : PROBLEM_CONTENT_TYPE);
}
