import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PROBLEMS } from '../core/problem-responses.js';
import { sendJsonText } from '../core/reply.js';
import type { Batches } from '../core/tasks/batches.js';
import { VERSION } from '../core/version.js';
import { Landing } from './landing-schema.js';
import { renderLanding } from './view/landing.js';
import { VIEW_CSP } from './view/page.js';

/** GET /: the live sessions with links to their pages, the tasks, the docs and the reports; HTML for a browser, else JSON. */
export async function landingRoutes(app: FastifyInstance, { batches }: { batches: Batches }): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const at = (path: string) => `${app.prefix}${path}`;

  const landing = async (): Promise<Landing> => {
    const tasks = (await app.tasks.ready()).select({});
    const byDomain: Landing['tasks']['by_domain'] = {};
    for (const task of tasks) {
      const domain = task.domain.name;
      byDomain[domain] = { count: (byDomain[domain]?.count ?? 0) + 1, list: at(`/tasks?domain=${encodeURIComponent(domain)}`) };
    }
    return {
      name: 'wildtools',
      version: VERSION,
      sessions: app.sessions.list().map((session) => {
        const path = at(`/sessions/${encodeURIComponent(session.id)}`);
        const task = session.options.task;
        return {
          id: session.id,
          calls: session.seq,
          ...(task === undefined ? {} : { task }),
          view: `${path}/view`,
          journal: `${path}/journal`,
          ...(task === undefined ? {} : { score: `${path}/score` }),
        };
      }),
      tasks: { count: tasks.length, by_domain: byDomain, list: at('/tasks') },
      docs: {
        swagger_ui: at('/docs'),
        openapi: at('/openapi.json'),
        domains: Object.fromEntries([...app.registry.domains.keys()].map((name) => [name, at(`/${name}/openapi.json`)])),
        health: at('/health'),
        hazards: at('/hazards'),
      },
      reports: {
        batches: batches.list().map((batch) => ({ id: batch.id, task: batch.task, sessions: batch.sessions.length, report: at(`/batches/${batch.id}`) })),
      },
    };
  };

  typed.get(
    '/',
    {
      schema: {
        operationId: 'index',
        summary: 'Where to start: the live sessions with links to their pages, the tasks, the docs and the reports',
        description: 'An HTML page when the request accepts text/html (a browser), else JSON.',
        tags: ['server'],
        response: {
          200: {
            description: 'The links, as JSON or as a page.',
            content: { 'application/json': { schema: Landing }, 'text/html': { schema: z.string() } },
          },
          ...PROBLEMS,
        },
      },
    },
    async (request, reply) => {
      const links = await landing();
      reply.header('vary', 'accept');
      if (!(request.headers.accept ?? '').includes('text/html')) return sendJsonText(reply, JSON.stringify(links));
      return reply
        .type('text/html; charset=utf-8')
        .header('content-security-policy', VIEW_CSP)
        .header('x-content-type-options', 'nosniff')
        .send(renderLanding(links));
    },
  );
}
