import type { FastifyInstance } from 'fastify';
import { EXAMPLE_TASK } from '../../domains/examples.js';
import { bodyExample } from '../core/openapi.js';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { problemError } from '../core/problem.js';
import { PROBLEMS } from '../core/problem-responses.js';
import { type Batches, batchReport } from '../core/tasks/batches.js';
import { MAX_SEED } from '../core/tasks/seeds.js';
import { CreateSession, prepareSession } from '../core/tasks/setup.js';
import { configure } from '../core/hazard-settings.js';

const tags = ['tasks'];

/** Most sessions one batch creates. */
export const MAX_BATCH_SESSIONS = 64;

export const CreateBatch = CreateSession.pick({ hazards: true, clock: true, kinds: true, hazard_rate: true })
  .extend({
    id: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,40}$/, 'letters, digits, "_" or "-", at most 41 characters')
      .optional()
      .describe('The batch id (its sessions are <id>.1 … <id>.N); a new unique id when absent.'),
    task: z.string().max(64).describe('The task every session runs.'),
    n: z.number().int().min(1).max(MAX_BATCH_SESSIONS).describe('How many sessions.'),
    seeds: z
      .array(z.number().int().min(0).max(MAX_SEED))
      .max(MAX_BATCH_SESSIONS)
      .optional()
      .describe('One distinct seed (instance) per session; 1 … N (the first test seeds) when absent.'),
  })
  .strict();

const Row = z.object({
  id: z.string(),
  seed: z.number().int(),
  status: z.enum(['running', 'scored', 'expired']).describe('running: not every turn answered yet; expired: the session is gone.'),
  success: z.boolean().nullable(),
});

const Report = z.object({
  id: z.string(),
  task: z.string(),
  sessions: z.array(Row),
  scored: z.number().int(),
  successes: z.number().int(),
  pass_hat_k: z
    .array(z.object({ k: z.number().int(), pass: z.number() }))
    .describe('pass^k over the scored sessions: the chance that k of them, drawn at random, all succeed.'),
});

/** POST /batches: N sessions of one task with distinct seeds; GET /batches/{id}: their verdicts and pass^k. */
export async function batchRoutes(app: FastifyInstance, { batches }: { batches: Batches }): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post(
    '/batches',
    {
      schema: {
        operationId: 'create_batch',
        summary: 'Creates N sessions of one task with distinct seeds (a reward source; pass^k over the seeds)',
        tags,
        body: CreateBatch,
        ...bodyExample({ task: EXAMPLE_TASK, n: 2 }),
        response: { 201: Report, ...PROBLEMS },
      },
    },
    async (request, reply) => {
      const { id, task, n, seeds, ...setup } = request.body;
      const chosen = seeds ?? Array.from({ length: n }, (_, i) => i + 1);
      if (chosen.length !== n || new Set(chosen).size !== n)
        throw problemError(400, 'invalid_input', `seeds: ${n} distinct seeds expected`, { field: 'seeds' });
      if (app.sessions.size + n > app.sessions.maxSessions) {
        throw problemError(
          503,
          'too_many_sessions',
          `A batch of ${n} would pass MAX_SESSIONS (${app.sessions.maxSessions}); delete sessions or ask for fewer.`,
        );
      }
      // The batch's sessions (`{batch}.{n}`) route with the batch id, which routes to this replica.
      const batchId = id ?? app.sessions.newId(() => batches.newId());
      const prepared = await Promise.all(
        chosen.map((seed, i) => prepareSession({ ...setup, task, seed, id: `${batchId}.${i + 1}` }, app.tasks, () => app.sessions.newId())),
      );
      configure(() => app.hazards.check(prepared[0]!.options.hazards!));
      const taken = prepared.find(({ options }) => app.sessions.get(options.id!));
      if (taken) throw problemError(409, 'session_exists', `Session '${taken.options.id}' already exists; choose another batch id.`, { field: 'id' });
      const batch = batches.add(
        task,
        chosen.map((seed, i) => ({ id: prepared[i]!.options.id!, seed })),
        batchId,
      );
      for (const { options, instance } of prepared) app.sessions.create(options, instance);
      await app.sessions.durable();
      return reply.code(201).send(batchReport(batch, app.sessions));
    },
  );

  typed.get(
    '/batches/:id',
    {
      schema: {
        operationId: 'get_batch',
        summary: "A batch's sessions with their verdicts, and pass^k over the scored ones",
        tags,
        params: z.strictObject({ id: z.string().max(64) }),
        response: { 200: Report, ...PROBLEMS },
      },
    },
    async (request) => batchReport(batches.require(request.params.id), app.sessions),
  );
}
