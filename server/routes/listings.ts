import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ToolContract } from '../../hazards/kind.js';
import { Listing } from '../listing-schema.js';
import { buildListing, contractsOf, LISTING_FORMATS, STRICT_FORMATS } from '../listings.js';
import { HONOURS_SESSION_HEADER } from '../openapi.js';
import { PROBLEMS } from '../problem-responses.js';
import { sendJsonText } from '../reply.js';
import { sessionIdOf } from '../session-id.js';
import type { Session } from '../sessions/session.js';

const Query = z
  .strictObject({
    format: z
      .enum(LISTING_FORMATS)
      .default('native')
      .describe(
        'openai: Chat Completions tools; openai-responses: Responses API function tools; anthropic: Messages API tools; mcp: an MCP tools/list result; native: ours.',
      ),
    strict: z
      .enum(['true', 'false'])
      .default('false')
      .describe(
        "true (openai and openai-responses only): schemas for OpenAI's strict mode: every argument required, the optional ones nullable (null is taken as absent), constraints strict mode lacks stated in the descriptions.",
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
  type SessionContracts = (session: Session) => ToolContract[] | null;
  const serve = (url: string, tag: string, canonical: ToolContract[], prefix: string, forSession: SessionContracts, summary: string) => {
    const cache = new Map<string, string>();
    const schema = {
      operationId: `list_${tag}_tools`,
      summary,
      tags: [tag],
      querystring: Query,
      response: { 200: Listing, ...PROBLEMS },
      ...HONOURS_SESSION_HEADER,
    };
    typed.get(url, { schema }, async (request, reply) => {
      const { format } = request.query;
      const strict = request.query.strict === 'true';
      const contracts = forSession(app.sessions.view(sessionIdOf(request)));
      if (contracts) return sendJsonText(reply, JSON.stringify(buildListing(contracts, format, prefix, strict)));
      const key = `${format}|${strict}`;
      let body = cache.get(key);
      if (body === undefined) {
        body = JSON.stringify(buildListing(canonical, format, prefix, strict));
        cache.set(key, body);
      }
      return sendJsonText(reply, body);
    });
  };
  const byDomain = new Map<string, ToolContract[]>();
  for (const domain of app.registry.domains.values()) {
    const canonical = contractsOf(app.registry.entries(domain.name), 'domain');
    byDomain.set(domain.name, canonical);
    serve(
      `/${domain.name}/tools`,
      domain.name,
      canonical,
      `/${domain.name}`,
      (session) => app.hazards.contracts(session, domain.name, canonical),
      `The ${domain.name} tools`,
    );
  }
  // The combined view shows the same changed contracts under their combined names. Decoys have no
  // route there, so it does not list them.
  const entries = [...app.registry.combined.values()];
  const combined = contractsOf(entries, 'combined');
  const combinedFor: SessionContracts = (session) => {
    const changed = new Map<string, Map<string, ToolContract>>();
    for (const [domain, canonical] of byDomain) {
      const contracts = app.hazards.contracts(session, domain, canonical);
      if (contracts) changed.set(domain, new Map(contracts.map((contract) => [contract.name, contract])));
    }
    if (changed.size === 0) return null;
    return entries.map(({ domain, tool, combinedName }, i) => {
      const contract = changed.get(domain.name)?.get(tool.name);
      return contract ? { ...contract, name: combinedName } : combined[i]!;
    });
  };
  serve('/tools', 'combined', combined, '', combinedFor, 'Every tool of every domain, under unique names');
}
