import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PROBLEMS } from '../core/problem-responses.js';
import { scoreSession } from '../core/tasks/judge.js';
import { renderPage, VIEW_CSP } from './view/page.js';
import { Params } from './session-schemas.js';

/** A session as a page a person reads: its task and score, its calls, the records it changed, its answers. */
export async function viewRoutes(app: FastifyInstance): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const { sessions } = app;

  typed.get(
    '/sessions/:id/view',
    {
      schema: {
        operationId: 'view_session',
        summary: 'The session as an HTML page: its task and score, a timeline of its calls with their hazards, the records it changed, its answers',
        tags: ['sessions'],
        params: Params,
        response: {
          200: { description: 'The page: self-contained HTML, no script.', content: { 'text/html': { schema: z.string() } } },
          ...PROBLEMS,
        },
      },
    },
    async (request, reply) => {
      const session = sessions.require(request.params.id);
      const { instance } = session;
      const summary = session.summary();
      const page = renderPage({
        id: session.id,
        seed: session.seed,
        clock: summary.clock,
        calls: summary.calls,
        dropped: summary.journal.dropped,
        task: instance && { id: instance.id, seed: instance.seed, title: instance.title, requests: instance.turns.map((turn) => turn.request) },
        score: instance && scoreSession(session),
        entries: session.journalSince(0),
        diff: session.diff(),
        answers: session.answers,
      });
      return reply.type('text/html; charset=utf-8').header('content-security-policy', VIEW_CSP).header('x-content-type-options', 'nosniff').send(page);
    },
  );
}
