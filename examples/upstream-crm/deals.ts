import type { FastifyInstance } from 'fastify';
import { parse } from './problem.js';
import { CloseDeal, DealQuery, LIST_CACHE } from './schemas.js';
import type { CrmStore } from './store.js';

// /deals: a contact's deals, and closing one as won or lost.

export async function dealRoutes(app: FastifyInstance, { store }: { store: CrmStore }): Promise<void> {
  app.get('/deals', async (request, reply) => {
    const deals = store.listDeals(parse(DealQuery, request.query, 'query').contact_id);
    return reply.header('cache-control', LIST_CACHE).send(deals);
  });

  app.post<{ Params: { id: string } }>('/deals/:id/close', async (request) =>
    store.closeDeal(request.params.id, parse(CloseDeal, request.body, 'body').outcome),
  );
}
