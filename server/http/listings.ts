import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Listing } from '../core/listing-schema.js';
import { buildListing, LISTING_FORMATS, STRICT_FORMATS } from '../core/listings.js';
import { HONOURS_SESSION_HEADER } from '../core/openapi.js';
import { PROBLEMS } from '../core/problem-responses.js';
import { sendJsonText } from '../core/reply.js';
import { sessionIdOf } from '../core/session-id.js';

const Query = z
  .strictObject({
    format: z
      .enum(LISTING_FORMATS)
      .default('native')
      .describe(
        'openai: Chat Completions tools; openai-responses: Responses API function tools; anthropic: Messages API tools; mcp: an MCP tools/list result; ' +
          'native: ours.',
      ),
    strict: z
      .enum(['true', 'false'])
      .default('false')
      .describe(
        "true (openai and openai-responses only): schemas for OpenAI's strict mode: every argument required, the optional ones nullable (null is taken as " +
          'absent), constraints strict mode lacks stated in the descriptions.',
      ),
  })
  .refine((query) => query.strict === 'false' || STRICT_FORMATS.includes(query.format), {
    path: ['strict'],
    message: `strict applies to the formats ${STRICT_FORMATS.join(' and ')}`,
  });

/**
 * GET /{domain}/tools and GET /tools. The canonical listings are computed once per format; a
 * session whose hazards change a contract (drift, rules, decoys) gets its own.
 */
export async function listingRoutes(app: FastifyInstance): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  for (const view of app.views) {
    const tag = view.name;
    const cache = new Map<string, string>();
    const schema = {
      operationId: `list_${tag}_tools`,
      summary: tag === 'combined' ? 'Every tool of every domain, under unique names' : `The ${tag} tools`,
      tags: [tag],
      querystring: Query,
      response: { 200: Listing, ...PROBLEMS },
      ...HONOURS_SESSION_HEADER,
    };
    typed.get(`${view.prefix}/tools`, { schema }, async (request, reply) => {
      const { format } = request.query;
      const strict = request.query.strict === 'true';
      const contracts = view.changed(app.sessions.view(sessionIdOf(request)));
      if (contracts) return sendJsonText(reply, JSON.stringify(buildListing(contracts, format, view.prefix, strict)));
      const key = `${format}|${strict}`;
      let body = cache.get(key);
      if (body === undefined) {
        body = JSON.stringify(buildListing(view.canonical, format, view.prefix, strict));
        cache.set(key, body);
      }
      return sendJsonText(reply, body);
    });
  }
}
