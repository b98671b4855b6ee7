import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { contactRoutes } from './contacts.js';
import { type CrmData, defaultData } from './data.js';
import { dealRoutes } from './deals.js';
import { errorHandler, HttpProblem, sendProblem } from './problem.js';
import { CrmStore } from './store.js';

// A small CRM API, as a user's own service would be: contacts and deals in memory, JSON in and out.

export interface CrmOptions {
  /** When given, every route but /health asks for `Authorization: Bearer <token>`. */
  token?: string;
  /** The starting records (default: the 40 contacts and 15 deals of data.ts); copied, never changed. */
  data?: CrmData;
  /** Fastify's logger (default: off). */
  logger?: boolean;
}

const OPEN_ROUTES = new Set(['/health']);

/** The CRM as a fastify instance, routes registered when it is made ready; not listening. */
export function buildCrm({ token, data = defaultData(), logger = false }: CrmOptions = {}): FastifyInstance {
  let requests = 0;
  const app = Fastify({ logger, exposeHeadRoutes: false, genReqId: () => `req_${String(++requests).padStart(6, '0')}` });
  const store = new CrmStore(data);

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  if (token !== undefined) app.addHook('onRequest', async (request, reply) => authorize(token, request, reply));
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler((request, reply) => sendProblem(reply, new HttpProblem(404, 'not-found', `No route ${request.method} ${request.url}.`).problem));

  // Every route in a plugin, so that an onRoute hook added before ready() sees them all.
  app.register(async (open) => {
    open.get('/health', async () => ({ status: 'ok' }));
  });
  app.register(contactRoutes, { store });
  app.register(dealRoutes, { store });
  return app;
}

async function authorize(token: string, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  if (OPEN_ROUTES.has(request.routeOptions.url ?? '')) return undefined;
  if (request.headers.authorization === `Bearer ${token}`) return undefined;
  const detail = request.headers.authorization === undefined ? 'Send Authorization: Bearer <token>.' : 'The bearer token is not valid.';
  return sendProblem(reply.header('www-authenticate', 'Bearer realm="crm"'), new HttpProblem(401, 'unauthorized', detail).problem);
}
