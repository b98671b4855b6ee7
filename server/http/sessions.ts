import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bodyExample, ADMIN_SECURITY, HONOURS_SESSION_HEADER } from '../core/openapi.js';
import { problemError } from '../core/problem.js';
import { addressedSession } from '../core/session-id.js';
import { PROBLEMS } from '../core/problem-responses.js';
import { sendJsonText } from '../core/reply.js';
import { openSession } from '../core/sessions/open.js';
import { Diff, Journal, Params, State, Summary } from './session-schemas.js';
import { journalToJson, journalToJsonl } from '../core/sessions/journal.js';
import { CreateSession } from '../core/tasks/setup.js';

const tags = ['sessions'];

/** Create, inspect, reset and delete sessions. */
export async function sessionRoutes(app: FastifyInstance): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const { sessions } = app;

  typed.post(
    '/sessions',
    {
      schema: {
        operationId: 'create_session',
        summary: 'Create a session: an isolated copy of every database with its own clock and journal',
        tags,
        description:
          "The id is the body's `id`, else the session the request names (`/s/{id}/sessions` or `X-Session-Id`: what a load balancer routes by), else a " +
          'new one.',
        body: CreateSession.nullish(),
        ...bodyExample({ seed: 42 }),
        response: { 201: Summary, ...PROBLEMS },
        ...HONOURS_SESSION_HEADER,
      },
    },
    async (request, reply) => {
      const body = request.body ?? {};
      const named = addressedSession(request);
      if (named !== undefined && body.id !== undefined && body.id !== named)
        throw problemError(400, 'invalid_input', `id: '${body.id}' differs from the session the request names ('${named}')`, { field: 'id' });
      const session = await openSession(app, named !== undefined ? { ...body, id: named } : body);
      // Serialized here rather than checked against Summary at every creation: summary() is typed by it.
      return sendJsonText(reply.code(201), JSON.stringify(session.summary()));
    },
  );

  typed.get(
    '/sessions',
    { schema: { operationId: 'list_sessions', summary: 'The live sessions', tags, response: { 200: z.array(Summary), ...PROBLEMS } } },
    async () => sessions.list().map((session) => session.summary()),
  );

  typed.get(
    '/sessions/:id',
    { schema: { operationId: 'get_session', summary: 'One session', tags, params: Params, response: { 200: Summary, ...PROBLEMS } } },
    async (request) => sessions.require(request.params.id).summary(),
  );

  typed.get(
    '/sessions/:id/state',
    {
      schema: {
        operationId: 'get_session_state',
        summary: 'Every domain database (and mock) as the session sees it: {"<domain>": {...}, ...}',
        tags,
        params: Params,
        response: { 200: State, ...PROBLEMS },
      },
    },
    async (request, reply) => {
      const session = sessions.require(request.params.id);
      const state = Object.fromEntries(session.databaseNames().map((name) => [name, session.domain(name).materialize()]));
      return sendJsonText(reply, JSON.stringify(state));
    },
  );

  typed.get(
    '/sessions/:id/diff',
    {
      schema: {
        operationId: 'get_session_diff',
        summary: 'The records the session changed since it started, with their changed fields',
        tags,
        params: Params,
        response: { 200: Diff, ...PROBLEMS },
      },
    },
    async (request) => {
      const session = sessions.require(request.params.id);
      return session.diff();
    },
  );

  typed.get(
    '/sessions/:id/journal',
    {
      schema: {
        operationId: 'get_session_journal',
        summary: 'Every call of the session: arguments, status, result or problem, changes, hazards',
        tags,
        params: Params,
        querystring: z.strictObject({
          format: z.enum(['json', 'jsonl']).default('json').describe('json: an array; jsonl: one entry per line.'),
          since: z.coerce.number().int().min(0).default(0).describe('Only entries with a sequence number above this.'),
        }),
        response: { 200: Journal, ...PROBLEMS },
      },
    },
    async (request, reply) => {
      const { format, since } = request.query;
      const entries = sessions.require(request.params.id).journalSince(since);
      if (format === 'jsonl') return sendJsonText(reply, journalToJsonl(entries), 'application/x-ndjson; charset=utf-8');
      return sendJsonText(reply, journalToJson(entries));
    },
  );

  typed.post(
    '/sessions/:id/reset',
    {
      config: { access: 'admin' },
      schema: {
        security: ADMIN_SECURITY,
        operationId: 'reset_session',
        summary: 'Back to the start: original databases, empty journal, clock at its start',
        tags,
        params: Params,
        response: { 200: Summary, ...PROBLEMS },
      },
    },
    async (request) => {
      const session = sessions.reset(request.params.id);
      await sessions.durable();
      return session.summary();
    },
  );

  typed.delete(
    '/sessions/:id',
    {
      config: { access: 'admin' },
      schema: {
        security: ADMIN_SECURITY,
        operationId: 'delete_session',
        summary: 'Delete a session (the default session is reset instead)',
        tags,
        params: Params,
        response: { 204: z.undefined().describe('Deleted; the default session is reset instead.'), ...PROBLEMS },
      },
    },
    async (request, reply) => {
      sessions.delete(request.params.id);
      await sessions.durable();
      return reply.code(204).send();
    },
  );
}
