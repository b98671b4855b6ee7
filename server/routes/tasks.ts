import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { TaskSpec } from '../../scoring/task.js';
import { TaskCategory } from '../../scoring/task.js';
import { problemError } from '../problem.js';
import { PROBLEMS } from '../problem-responses.js';
import { scoreJournal } from '../tasks/judge.js';
import { PublicTask, ScoreSchema, TaskParams, TaskSummary } from './task-schemas.js';

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
  journal: z.array(StoredEntry).max(10_000).describe('The journal as GET /sessions/{id}/journal gave it (other fields are ignored).'),
  answers: z.array(z.string().max(65_536)).max(16).default([]).describe('The final answers, one per turn.'),
});

/** The tasks (GET /tasks, GET /tasks/{domain}/{number}) and re-scoring of a stored run (POST /score). */
export async function taskRoutes(app: FastifyInstance): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const { tasks } = app;
  const summary = (task: TaskSpec) => {
    const { tools: _tools, policy: _policy, ...rest } = tasks.publicView(task);
    return rest;
  };
  const require = (id: string) => {
    const task = tasks.get(id);
    if (!task) throw problemError(404, 'unknown_task', `No task ${JSON.stringify(id)}; GET /tasks lists them.`, { field: 'task' });
    return task;
  };

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
    async (request) => {
      return tasks.select(request.query).map(summary);
    },
  );

  typed.get(
    '/tasks/:domain/:number',
    {
      schema: {
        operationId: 'get_task',
        summary: "One task as an agent may see it: its request, its domain's tools and policy",
        tags,
        params: TaskParams,
        response: { 200: PublicTask, ...PROBLEMS },
      },
    },
    async (request) => tasks.publicView(require(`${request.params.domain}/${request.params.number}`)),
  );

  typed.post(
    '/score',
    {
      schema: {
        operationId: 'score_journal',
        summary: "Re-scores a stored run from its journal and answers, with today's task and scorer",
        tags,
        body: Rescore,
        response: { 200: ScoreSchema, ...PROBLEMS },
      },
    },
    async (request) => {
      const { task, journal, answers } = request.body;
      return scoreJournal(require(task), journal, answers, tasks, app.sessions.compat);
    },
  );
}
