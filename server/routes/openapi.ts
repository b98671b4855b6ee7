import type { FastifyInstance } from 'fastify';
import { openapiDocuments } from '../openapi.js';
import { sendJsonText } from '../reply.js';

/** GET /openapi.json (combined view and server routes) and GET /{domain}/openapi.json. */
export async function openapiRoutes(app: FastifyInstance): Promise<void> {
  let documents: Map<string, string> | undefined;
  const documentOf = (name: string): string => {
    documents ??= new Map([...openapiDocuments(app)].map(([key, doc]) => [key, JSON.stringify(doc)]));
    return documents.get(name)!;
  };
  const serve = (url: string, name: string) =>
    app.get(url, { schema: { hide: true } }, async (_request, reply) => sendJsonText(reply, documentOf(name)));
  serve('/openapi.json', 'combined');
  for (const domain of app.registry.domains.keys()) serve(`/${domain}/openapi.json`, domain);
}
