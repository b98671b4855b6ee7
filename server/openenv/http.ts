import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { problem } from '../../lib/problem.js';
import { PUBLIC_SECURITY } from '../core/openapi.js';
import { PROBLEMS } from '../core/problem-responses.js';
import { ProblemError, problemError } from '../core/problem.js';
import { addressedSession } from '../core/session-id.js';
import { SessionId } from '../core/sessions/session.js';
import { VERSION } from '../core/version.js';
import type { Episodes } from './episodes.js';
import { Action, EpisodeState, OPENENV_SCHEMAS, Observation, ResetData, type StepResult } from './protocol.js';
import { answerRpc } from './rpc.js';

const tags = ['openenv'];

const StepResultSchema = z.object({
  observation: Observation,
  reward: z.number().nullable().describe('The score on the terminal step (1 success, 0 failure); null before.'),
  done: z.boolean(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

const StepRequest = z.strictObject({
  action: z.record(z.string(), z.unknown()).describe('The action (GET /openenv/schema): call_tool, list_tools or answer.'),
  session_id: SessionId.optional().describe('The episode’s session (else X-Session-Id or /s/{id}/openenv/step).'),
  timeout_s: z.number().positive().optional().describe('Accepted for OpenEnv clients; calls are not cut short by it.'),
  request_id: z.string().max(255).optional(),
});

/** OpenEnv's HTTP routes (under /openenv): reset, step and state carry wildtools' session id; schema, metadata, health and JSON-RPC tools. */
export async function openenvHttpRoutes(app: FastifyInstance, { episodes }: { episodes: Episodes }): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const sessionOf = (request: FastifyRequest, named?: string) => {
    const id = named ?? addressedSession(request);
    if (id === undefined)
      throw problemError(400, 'invalid_input', 'Name the episode’s session: session_id in the body, an X-Session-Id header, or /s/{id}/openenv/….', {
        field: 'session_id',
      });
    return app.sessions.require(id);
  };

  typed.get(
    '/health',
    {
      // Public like /health: a liveness probe carries no token.
      config: { access: 'public' },
      schema: {
        operationId: 'openenv_health',
        summary: "OpenEnv's health check",
        tags,
        security: PUBLIC_SECURITY,
        response: { 200: z.object({ status: z.literal('healthy') }), ...PROBLEMS },
      },
    },
    async () => ({ status: 'healthy' as const }),
  );

  typed.get(
    '/metadata',
    {
      schema: {
        operationId: 'openenv_metadata',
        summary: 'What this environment is (OpenEnv EnvironmentMetadata)',
        tags,
        response: { 200: z.object({ name: z.string(), description: z.string(), version: z.string(), tasks: z.number().int() }), ...PROBLEMS },
      },
    },
    async () => ({
      name: 'wildtools',
      description:
        `Tool-use tasks in ${[...app.registry.domains.keys()].join(', ')} against unreliable APIs: every step is a real tool call, each seed is ` +
        `an instance of its own (records, request, hazard draws), the reward is a deterministic score.`,
      version: VERSION,
      tasks: (await app.tasks.ready()).size,
    }),
  );

  typed.get(
    '/schema',
    {
      schema: {
        operationId: 'openenv_schema',
        summary: 'JSON Schemas of the action, the observation and the state',
        tags,
        response: {
          200: z.object({
            action: z.record(z.string(), z.unknown()),
            observation: z.record(z.string(), z.unknown()),
            state: z.record(z.string(), z.unknown()),
          }),
          ...PROBLEMS,
        },
      },
    },
    async () => ({ action: OPENENV_SCHEMAS.action, observation: OPENENV_SCHEMAS.observation, state: OPENENV_SCHEMAS.state }),
  );

  typed.post(
    '/reset',
    {
      schema: {
        operationId: 'openenv_reset',
        summary: 'Starts an episode in a new session (its id in the observation and X-Session-Id)',
        tags,
        body: ResetData.nullish(),
        response: { 200: StepResultSchema, ...PROBLEMS },
      },
    },
    async (request, reply): Promise<StepResult> => {
      const { session, result } = await episodes.reset(request.body ?? {});
      reply.header('x-session-id', session.id);
      return result;
    },
  );

  typed.post(
    '/step',
    {
      schema: {
        operationId: 'openenv_step',
        summary: 'One step of an episode: a tool call, a re-read of the listing, or the final answer',
        tags,
        body: StepRequest,
        response: { 200: StepResultSchema, ...PROBLEMS },
      },
    },
    async (request): Promise<StepResult> => {
      const session = sessionOf(request, request.body.session_id);
      const action = Action.safeParse(request.body.action);
      if (!action.success) throw actionProblem(action.error);
      return episodes.step(session, action.data);
    },
  );

  typed.get(
    '/state',
    {
      schema: {
        operationId: 'openenv_state',
        summary: "The episode's state (an empty one when no session is named)",
        tags,
        querystring: z.strictObject({ session_id: SessionId.optional() }),
        response: { 200: EpisodeState, ...PROBLEMS },
      },
    },
    async (request) => {
      const named = request.query.session_id ?? addressedSession(request);
      return episodes.state(named === undefined ? undefined : app.sessions.require(named));
    },
  );

  app.post('/mcp', { schema: { hide: true } }, async (request) => answerRpc(app, episodes, request.body, undefined, addressedSession(request)));
}

/** An action that does not fit the schema: 422, as OpenEnv answers, naming each field. */
export function actionProblem(error: z.ZodError): ProblemError {
  const errors = error.issues.map((issue) => ({ field: ['action', ...issue.path].join('.'), message: issue.message }));
  return new ProblemError(problem(422, 'invalid_action', `Invalid action: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`, { errors }));
}
