import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ToolContract } from '../../hazards/kind.js';
import { buildListing, contractsOf, LISTING_FORMATS, type ListingFormat } from '../listings.js';
import { sendJsonText } from '../reply.js';
import { sessionIdOf } from '../session-id.js';

const Query = z.strictObject({
  format: z
    .enum(LISTING_FORMATS)
    .default('native')
    .describe('openai: Chat Completions tools; anthropic: Messages API tools; mcp: an MCP tools/list result; native: ours.'),
});

/**
 * GET /{domain}/tools and GET /tools. The canonical listings are computed once per format; a
 * session whose hazards change a contract (drift, rules, decoys) gets its own.
 */
export async function listingRoutes(app: FastifyInstance): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const serve = (url: string, tag: string, canonical: ToolContract[], prefix: string, domain: string | undefined, summary: string) => {
    const cache = new Map<ListingFormat, string>();
    typed.get(url, { schema: { operationId: `list_${tag}_tools`, summary, tags: [tag], querystring: Query } }, async (request, reply) => {
      const { format } = request.query;
      if (domain !== undefined) {
        const session = app.sessions.resolve(sessionIdOf(request));
        const contracts = app.hazards.contracts(session, domain, canonical);
        if (contracts) return sendJsonText(reply, JSON.stringify(buildListing(contracts, format, prefix)));
      }
      let body = cache.get(format);
      if (body === undefined) {
        body = JSON.stringify(buildListing(canonical, format, prefix));
        cache.set(format, body);
      }
      return sendJsonText(reply, body);
    });
  };
  for (const domain of app.registry.domains.values()) {
    serve(`/${domain.name}/tools`, domain.name, contractsOf(app.registry.entries(domain.name), 'domain'), `/${domain.name}`, domain.name, `The ${domain.name} tools`);
  }
  serve('/tools', 'combined', contractsOf([...app.registry.combined.values()], 'combined'), '', undefined, 'Every tool of every domain, under unique names');
}
