import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PROBLEMS } from '../core/problem-responses.js';
import { scoreSession } from '../core/tasks/judge.js';
import { renderPage, VIEW_CSP } from './view/page.js';
import { Params } from './session-schemas.js';
import type { Session } from '../core/sessions/session.js';

/** How often a live session's page reloads itself. */
export const REFRESH_SECONDS = 5;
/** A session is live while its last call (or answer) is at most this old, and its task (if any) still has turns to answer. */
export const LIVE_WINDOW_MS = 60_000;

/** A session as a page a person reads: its task and score, its calls, the records it changed, its answers. */
export async function viewRoutes(app: FastifyInstance): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const { sessions } = app;
  const live = (session: Session): boolean =>
    session.seq > 0 && sessions.idleMs(session) <= LIVE_WINDOW_MS && (!session.instance || session.answers.length < session.instance.turns.length);

  typed.get(
    '/sessions/:id/view',
    {
      schema: {
        operationId: 'view_session',
        summary: 'The session as an HTML page: its task and score, a timeline of its calls with their hazards, the records it changed, its answers',
        tags: ['sessions'],
        params: Params,
        response: {
          200: {
            description:
              'The page: self-contained HTML, no script; while the session is live (a call in the last minute, its task not answered) it reloads every 5 s.',
            content: { 'text/html': { schema: z.string() } },
          },
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
        refreshSeconds: live(session) ? REFRESH_SECONDS : undefined,
      });
      return reply.type('text/html; charset=utf-8').header('content-security-policy', VIEW_CSP).header('x-content-type-options', 'nosniff').send(page);
    },
  );
}
