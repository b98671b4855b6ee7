import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HazardSpec } from '../../hazards/spec.js';
import { bodyExample, ADMIN_SECURITY } from '../core/openapi.js';
import { configure } from '../core/hazard-settings.js';
import { PROBLEMS } from '../core/problem-responses.js';
import { SessionId } from '../core/sessions/session.js';
import { Flag } from '../../lib/flag.js';

const tags = ['hazards'];

const Report = z.object({
  session: z.string(),
  seed: z.string(),
  settings: z.object({ hints: z.boolean(), max_consecutive: z.number().int(), latency_ms: z.number().int() }),
  kinds: z.array(
    z.object({
      kind: z.string(),
      family: z.string(),
      scope: z.enum(['call', 'session']),
      retryable: z.boolean(),
      sees: z.string(),
      recovery: z.string(),
      needs: z.array(z.string()).describe('The skills that recover from it: any one suffices; an agent lacking them all fails under it.'),
    }),
  ),
  matrix: z.array(
    z.object({
      domain: z.string(),
      tool: z.string(),
      kind: z.string(),
      family: z.string(),
      probability: z.number(),
      source: z.string().describe('The setting that decided the probability: a variable, the config file, the runtime, the session.'),
      assigned: z.boolean().describe('True when the domain declares this kind for this tool; false for a generic kind switched on by name.'),
      condition: z
        .string()
        .optional()
        .describe(
          "When the scenario bites only some calls of its tool: which, in the agent's terms (e.g. 'UPS orders only'); absent when it may bite any call.",
        ),
    }),
  ),
});
const responses = { 200: Report, ...PROBLEMS };

/** GET /hazards (the effective matrix and catalog) and runtime control under /admin/hazards. */
export async function hazardRoutes(app: FastifyInstance): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const describe = (sessionId: string, activeOnly: boolean) => {
    const session = app.sessions.require(sessionId);
    const settings = app.hazards.settings(session);
    const matrix = app.hazards.matrix(session).map((cell) => {
      const condition = app.hazards.assignment.scenario(cell, cell.kind)?.condition;
      return condition === undefined ? cell : { ...cell, condition };
    });
    return {
      session: session.id,
      seed: session.seed,
      settings: { hints: settings.hints, max_consecutive: settings.maxConsecutive, latency_ms: settings.latencyMs },
      kinds: [...app.hazards.kinds.values()].map((k) => ({
        kind: k.kind,
        family: k.family,
        scope: k.scope,
        retryable: k.retryable,
        sees: k.sees,
        recovery: k.recovery,
        needs: [...k.needs],
      })),
      matrix: activeOnly ? matrix.filter((cell) => cell.probability > 0) : matrix,
    };
  };
  const Query = z.strictObject({
    session: SessionId.default('default').describe('Whose settings: a session id (its own hazards option applies).'),
    active: Flag.default(false).describe('Only cells with a probability above 0 (1, 0, true or false).'),
  });

  typed.get(
    '/hazards',
    {
      schema: {
        operationId: 'get_hazards',
        summary: 'The effective hazard matrix: tool × kind → probability and where it was set',
        tags,
        querystring: Query,
        response: responses,
      },
    },
    async (request) => describe(request.query.session, request.query.active),
  );

  typed.put(
    '/admin/hazards',
    {
      config: { access: 'admin' },
      schema: {
        security: ADMIN_SECURITY,
        operationId: 'set_hazards',
        summary: 'Replace the runtime hazard settings (over the environment and the config file, under session options)',
        tags,
        body: HazardSpec,
        ...bodyExample({ kinds: { transient_failure: 0.3 }, max_consecutive: 2 }),
        response: responses,
      },
    },
    async (request) => {
      configure(() => app.hazards.setRuntime(request.body));
      return describe('default', true);
    },
  );

  typed.delete(
    '/admin/hazards',
    {
      config: { access: 'admin' },
      schema: { security: ADMIN_SECURITY, operationId: 'clear_hazards', summary: 'Drop the runtime hazard settings', tags, response: responses },
    },
    async () => {
      app.hazards.setRuntime(undefined);
      return describe('default', true);
    },
  );
}
