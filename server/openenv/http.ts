import type { FastifyInstance, FastifyRequest } from 'fastify';
import { EXAMPLE_TASK } from '../../domains/examples.js';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { problem } from '../../lib/problem.js';
import { TaskCategory } from '../../scoring/task.js';
import { bodyExample, documentUnder, PUBLIC_SECURITY } from '../core/openapi.js';
import { PROBLEMS } from '../core/problem-responses.js';
import { ProblemError, problemError } from '../core/problem.js';
import { addressedSession } from '../core/session-id.js';
import { sendJsonText } from '../core/reply.js';
import { SessionId } from '../core/sessions/session.js';
import { SPLITS } from '../core/tasks/seeds.js';
import { TaskSummary, taskSummary } from '../core/tasks/summary.js';
import { VERSION } from '../core/version.js';
import type { Episodes } from './episodes.js';
import { Action, EpisodeState, LenientResetData, OPENENV_SCHEMAS, Observation, type StepResult, splitReset } from './protocol.js';
import { answerRpc } from './rpc.js';

const tags = ['openenv'];

const StepResultSchema = z.object({
  observation: Observation,
  reward: z.number().nullable().describe('The score on the terminal step (1 success, 0 failure); null before.'),
  done: z.boolean(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

/** OpenEnv's StepRequest: its other members (render, …, as the server lets environments define) are accepted and ignored. */
const StepRequest = z.looseObject({
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
        body: LenientResetData.nullish(),
        ...bodyExample({ task: EXAMPLE_TASK, seed: 1 }),
        response: { 200: StepResultSchema, ...PROBLEMS },
      },
    },
    async (request, reply): Promise<StepResult> => {
      const { data, ignored } = splitReset(request.body ?? {});
      const { session, result } = await episodes.reset(data, ignored);
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
        ...bodyExample({ action: { type: 'list_tools' } }),
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

  typed.post(
    '/mcp',
    {
      schema: {
        operationId: 'openenv_mcp',
        summary: "OpenEnv's JSON-RPC tools: tools/list, tools/call, openenv/session/create and openenv/session/close",
        description:
          'A JSON-RPC 2.0 request; always answered 200 with a JSON-RPC response (an `error` member for a refusal). The same requests go over the ' +
          'WebSocket at /openenv/mcp, one session per connection.',
        tags,
        body: z.unknown().describe('{"jsonrpc": "2.0", "method": …, "params": {…}, "id": …}'),
        ...bodyExample({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        response: { 200: JsonRpcAnswer, ...PROBLEMS },
      },
    },
    async (request) => answerRpc(app, episodes, request.body, undefined, addressedSession(request)),
  );

  typed.get(
    '/tasks',
    {
      schema: {
        operationId: 'openenv_tasks',
        summary: 'The tasks an episode can reset to, and the seed ranges of the train and test splits',
        description:
          'Reset with `{"task": <id>, "seed": <a seed of the split>}`: train on train seeds, evaluate on test seeds (a model trained on train ' +
          'seeds never saw a test instance).',
        tags,
        querystring: z.strictObject({
          split: z.enum(['train', 'test']).optional().describe('Only this split’s seed range (default both).'),
          domain: z.string().max(64).optional().describe('Only this domain.'),
          category: TaskCategory.optional().describe('Only tasks of this category.'),
          kind: z.string().max(64).optional().describe('Only tasks that target this hazard kind.'),
        }),
        response: { 200: z.object({ splits: z.record(z.string(), SeedRange), tasks: z.array(TaskSummary) }), ...PROBLEMS },
      },
    },
    async (request) => {
      const { split, ...filters } = request.query;
      const splits = split ? { [split]: SPLITS[split] } : { train: SPLITS.train, test: SPLITS.test };
      return { splits, tasks: (await app.tasks.ready()).select(filters).map(taskSummary) };
    },
  );

  let document: string | undefined;
  app.get('/openapi.json', { schema: { hide: true } }, async (_request, reply) => {
    document ??= JSON.stringify(
      documentUnder(app, app.prefix, {
        title: 'wildtools as an OpenEnv environment',
        description: "OpenEnv's HTTP protocol (simulation mode: reset, step, state), relative to this base URL; its WebSocket is at ws.",
      }),
    );
    return sendJsonText(reply, document);
  });
}

const JsonRpcAnswer = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string(), z.number(), z.null()]),
  result: z.unknown().optional(),
  error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }).optional(),
});

const SeedRange = z.object({ first: z.number().int(), last: z.number().int() }).describe('The seeds of a split, both ends included.');

/** An action that does not fit the schema: 422, as OpenEnv answers, naming each field. */
export function actionProblem(error: z.ZodError): ProblemError {
  const errors = error.issues.map((issue) => ({ field: ['action', ...issue.path].join('.'), message: issue.message }));
  return new ProblemError(problem(422, 'invalid_action', `Invalid action: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`, { errors }));
}
