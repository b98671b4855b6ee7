import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { buildListing, LISTING_FORMATS, type ListingFormat } from '../listings.js';
import type { ToolEntry } from '../registry.js';
import { sendJsonText } from '../reply.js';

const Query = z.strictObject({
  format: z
    .enum(LISTING_FORMATS)
    .default('native')
    .describe('openai: Chat Completions tools; anthropic: Messages API tools; mcp: an MCP tools/list result; native: ours.'),
});

/** GET /{domain}/tools and GET /tools: the tool listings, computed once per format. */
export async function listingRoutes(app: FastifyInstance): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const serve = (url: string, tag: string, entries: ToolEntry[], view: 'domain' | 'combined', summary: string) => {
    const cache = new Map<ListingFormat, string>();
    typed.get(url, { schema: { operationId: `list_${tag}_tools`, summary, tags: [tag], querystring: Query } }, async (request, reply) => {
      const { format } = request.query;
      let body = cache.get(format);
      if (body === undefined) {
        body = JSON.stringify(buildListing(entries, format, view));
        cache.set(format, body);
      }
      return sendJsonText(reply, body);
    });
  };
  for (const domain of app.registry.domains.values()) {
    serve(`/${domain.name}/tools`, domain.name, app.registry.entries(domain.name), 'domain', `The ${domain.name} tools`);
  }
  serve('/tools', 'combined', [...app.registry.combined.values()], 'combined', 'Every tool of every domain, under unique names');
}
