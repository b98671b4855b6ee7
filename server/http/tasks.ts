import type { FastifyInstance } from 'fastify';
import { EXAMPLE_TASK } from '../../domains/examples.js';
import { bodyExample } from '../core/openapi.js';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { TaskCategory } from '../../scoring/task.js';
import { problemError } from '../core/problem.js';
import { PROBLEMS } from '../core/problem-responses.js';
import { scoreJournal } from '../core/tasks/judge.js';
import { MAX_SEED, seedOf } from '../core/tasks/seeds.js';
import { TaskSummary, taskSummary } from '../core/tasks/summary.js';
import { PublicTask, ScoreSchema, TaskParams, TaskQuery } from './task-schemas.js';

const tags = ['tasks'];

const StoredEntry = z.object({
  seq: z.number().int(),
  domain: z.string().max(64),
  tool: z.string().max(128),
  args: z.unknown(),
  status: z.number().int(),
  changes: z.array(z.strictObject({ table: z.string().max(128), id: z.string().max(256), value: z.unknown() })).max(10_000),
  hazards: z.array(z.object({ kind: z.string(), tool: z.string(), retryable: z.boolean() }).catchall(z.unknown())).max(100),
  idempotency: z.object({ key: z.string(), replayed: z.number().int().optional() }).optional(),
});

const Rescore = z.strictObject({
  task: z.string().max(64).describe('The task id, e.g. retail/012.'),
  seed: z.number().int().min(0).max(MAX_SEED).default(0).describe("The instance the run was on (its session's seed)."),
  journal: z.array(StoredEntry).max(10_000).describe('The journal as GET /sessions/{id}/journal gave it (other fields are ignored).'),
  answers: z
    .array(z.strictObject({ answer: z.record(z.string(), z.unknown()).optional(), text: z.string().max(65_536).optional() }))
    .max(16)
    .default([])
    .describe('The final answers, one per turn: the typed answer and its words.'),
});

/** A seed from a query (digits), within the range. */
function querySeed(value: string): number {
  const seed = seedOf(value);
  if (seed === undefined) throw problemError(400, 'invalid_input', `seed: a whole number from 0 to ${MAX_SEED}`, { field: 'seed' });
  return seed;
}

/** The tasks (GET /tasks, GET /tasks/{domain}/{number}) and re-scoring of a stored run (POST /score). */
export async function taskRoutes(app: FastifyInstance): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const { tasks } = app;
  typed.get(
    '/tasks',
    {
      schema: {
        operationId: 'list_tasks',
        summary: 'The tasks: what the agent is asked and which hazards each targets (never the expected outcome)',
        tags,
        querystring: z.strictObject({
          domain: z.string().max(64).optional().describe('Only this domain.'),
          category: TaskCategory.optional().describe('Only tasks of this category.'),
          kind: z.string().max(64).optional().describe('Only tasks that target this hazard kind.'),
        }),
        response: { 200: z.array(TaskSummary), ...PROBLEMS },
      },
    },
    async (request) => (await tasks.ready()).select(request.query).map(taskSummary),
  );

  typed.get(
    '/tasks/:domain/:number',
    {
      schema: {
        operationId: 'get_task',
        summary: "One task's instance as an agent may see it: its request, its answer's schema, its domain's tools and policy",
        tags,
        params: TaskParams,
        querystring: TaskQuery,
        response: { 200: PublicTask, ...PROBLEMS },
      },
    },
    async (request) => {
      const task = (await tasks.ready()).require(`${request.params.domain}/${request.params.number}`);
      return tasks.publicView(tasks.instance(task.id, querySeed(request.query.seed)));
    },
  );

  typed.post(
    '/score',
    {
      schema: {
        operationId: 'score_journal',
        summary: "Re-scores a stored run from its journal and answers, with today's task and scorer",
        tags,
        body: Rescore,
        ...bodyExample({ task: EXAMPLE_TASK, seed: 0, journal: [], answers: [] }),
        response: { 200: ScoreSchema, ...PROBLEMS },
      },
    },
    async (request) => {
      const { task, seed, journal, answers } = request.body;
      const entry = (await tasks.ready()).require(task);
      return scoreJournal(tasks.instance(entry.id, seed), journal, answers, tasks.bases);
    },
  );
}
