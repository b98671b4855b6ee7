import type { FastifyInstance } from 'fastify';
import type { ToolContract } from '../../hazards/kind.js';
import { contractsOf } from '../core/listings.js';
import { openapiDocuments, sessionDocument } from '../core/openapi.js';
import { sendJsonText } from '../core/reply.js';
import { sessionIdOf } from '../core/session-id.js';

/**
 * GET /openapi.json (combined view and server routes) and GET /{domain}/openapi.json. A session
 * whose hazards change a contract gets the document as it sees it.
 */
export async function openapiRoutes(app: FastifyInstance): Promise<void> {
  let documents: ReturnType<typeof openapiDocuments> | undefined;
  const texts = new Map<string, string>();
  const documentOf = (name: string) => {
    documents ??= openapiDocuments(app);
    return documents.get(name)!;
  };
  const textOf = (name: string): string => {
    let text = texts.get(name);
    if (text === undefined) {
      text = JSON.stringify(documentOf(name));
      texts.set(name, text);
    }
    return text;
  };
  app.get('/openapi.json', { schema: { hide: true } }, async (_request, reply) => sendJsonText(reply, textOf('combined')));
  for (const domain of app.registry.domains.keys()) {
    let canonical: ToolContract[] | undefined;
    app.get(`/${domain}/openapi.json`, { schema: { hide: true } }, async (request, reply) => {
      canonical ??= contractsOf(app.registry.entries(domain), 'domain');
      const contracts = app.hazards.contracts(app.sessions.view(sessionIdOf(request)), domain, canonical);
      if (contracts) return sendJsonText(reply, JSON.stringify(sessionDocument(documentOf(domain), domain, contracts)));
      return sendJsonText(reply, textOf(domain));
    });
  }
}
