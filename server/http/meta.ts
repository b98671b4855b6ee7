import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PUBLIC_SECURITY } from '../core/openapi.js';
import { PROBLEMS } from '../core/problem-responses.js';
import { VERSION } from '../core/version.js';

/** A session whose saved data is damaged: where, and what is wrong. */
const DamagedSession = z.object({
  session: z.string().optional(),
  where: z.string().describe('The file (and line) where the damage was found.'),
  problem: z.string(),
});

const Health = z.object({
  status: z
    .enum(['ok', 'full', 'degraded'])
    .describe(
      'ok: serving; full: serving, but no new session can be created; degraded: DATA_DIR cannot be written (every change is refused with 503, reads are ' +
        'answered), or damaged data was set aside or is held back.',
    ),
  version: z.string(),
  sessions: z.object({
    live: z.number().int().describe('Sessions alive, `default` not counted (saved ones not read back yet included).'),
    loading: z.number().int().describe('Sessions of DATA_DIR not read back yet: each is read on first use, the others in the background.'),
    max: z.number().int().describe('MAX_SESSIONS.'),
    full: z.boolean().describe('True when a new session would be refused (503).'),
  }),
  journal: z.object({
    bytes: z.number().int().describe('Size of all kept journal entries, as JSON.'),
    limit: z.number().int().nullable().describe('JOURNAL_MEMORY; null when unbounded.'),
  }),
  detail: z.string().optional().describe('What is wrong, when status is not ok.'),
  quarantined: z
    .array(DamagedSession)
    .optional()
    .describe('Sessions set aside because their data was damaged (DATA_RECOVER=quarantine), in DATA_DIR/quarantine.'),
  damaged: z
    .array(DamagedSession)
    .optional()
    .describe('Sessions whose data was found damaged on reading it back after start: held back (503 session_damaged) until DATA_DIR is repaired.'),
});

/** Health, the list of domains, and each domain's policy. */
export async function metaRoutes(app: FastifyInstance): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get(
    '/health',
    {
      schema: {
        operationId: 'health',
        summary: 'Liveness, version, and room for new sessions',
        tags: ['server'],
        security: PUBLIC_SECURITY,
        response: { 200: Health, ...PROBLEMS },
      },
    },
    async () => {
      const live = app.sessions.size;
      const loading = app.sessions.unloaded;
      const max = app.sessions.maxSessions;
      const budget = app.sessions.journalBudget;
      const journal = { bytes: budget.used, limit: Number.isFinite(budget.limit) ? budget.limit : null };
      const full = live >= max;
      const failure = app.sessions.persistenceFailure;
      const quarantined = app.sessions.quarantined;
      const damaged = app.sessions.damaged;
      const problems = [
        ...(failure === undefined
          ? []
          : [`DATA_DIR cannot be written (${failure}): every change is refused (503 persistence_failed) and taken back; reads are answered.`]),
        ...(quarantined.length === 0
          ? []
          : [
              `${quarantined.length} damaged item(s) of DATA_DIR were set aside at start (DATA_DIR/quarantine): ` +
                `${quarantined.map((q) => q.session ?? q.where).join(', ')}.`,
            ]),
        ...(damaged.length === 0
          ? []
          : [
              `${damaged.length} session(s) of DATA_DIR are damaged and held back (503 session_damaged): ${damaged.map((d) => d.session).join(', ')}; ` +
                `restore DATA_DIR from a backup, or restart with DATA_RECOVER=quarantine.`,
            ]),
        ...(full ? [`The session cap (MAX_SESSIONS=${max}) is reached: creating a session answers 503 until one is deleted or expires.`] : []),
      ];
      const status = failure !== undefined || quarantined.length > 0 || damaged.length > 0 ? ('degraded' as const) : full ? ('full' as const) : ('ok' as const);
      return {
        status,
        version: VERSION,
        sessions: { live, loading, max, full },
        journal,
        ...(problems.length > 0 ? { detail: problems.join(' ') } : {}),
        ...(quarantined.length > 0 ? { quarantined: [...quarantined] } : {}),
        ...(damaged.length > 0 ? { damaged: [...damaged] } : {}),
      };
    },
  );

  const domains = [...app.registry.domains.values()].map((domain) => ({
    name: domain.name,
    title: domain.title,
    summary: domain.summary,
    tools: domain.tools.length,
    endpoints: { tools: `/${domain.name}/tools`, openapi: `/${domain.name}/openapi.json`, policy: `/${domain.name}/policy` },
  }));
  typed.get(
    '/domains',
    {
      schema: {
        operationId: 'list_domains',
        summary: 'The domains with their tool counts',
        tags: ['server'],
        response: {
          200: z.array(
            z.object({
              name: z.string(),
              title: z.string(),
              summary: z.string(),
              tools: z.number().int(),
              endpoints: z.object({ tools: z.string(), openapi: z.string(), policy: z.string() }),
            }),
          ),
          ...PROBLEMS,
        },
      },
    },
    async () => domains,
  );

  for (const domain of app.registry.domains.values()) {
    const policy = await readFile(domain.policyFile, 'utf8');
    typed.get(
      `/${domain.name}/policy`,
      {
        schema: {
          operationId: `get_${domain.name}_policy`,
          summary: `The rules an agent must follow in the ${domain.name} domain (markdown)`,
          tags: [domain.name],
          response: { 200: { description: 'The policy, in markdown.', content: { 'text/markdown': { schema: z.string() } } }, ...PROBLEMS },
        },
      },
      async (_request, reply) => reply.type('text/markdown; charset=utf-8').send(policy),
    );
  }
}
