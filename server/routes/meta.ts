import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { VERSION } from '../version.js';

/** Health, the list of domains, and each domain's policy. */
export async function metaRoutes(app: FastifyInstance): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get(
    '/health',
    {
      schema: {
        operationId: 'health',
        summary: 'Liveness and version',
        tags: ['server'],
        response: { 200: z.object({ status: z.literal('ok'), version: z.string(), sessions: z.number().int() }) },
      },
    },
    async () => ({ status: 'ok' as const, version: VERSION, sessions: app.sessions.size }),
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
          produces: ['text/markdown'],
        },
      },
      async (_request, reply) => reply.type('text/markdown; charset=utf-8').send(policy),
    );
  }
}
