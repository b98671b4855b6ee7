import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { problemError } from '../problem.js';
import { PROBLEMS } from '../problem-responses.js';
import { scoreSession, taskOf } from '../tasks/judge.js';
import { Params } from './session-schemas.js';
import { SessionScoreSchema } from './task-schemas.js';

const tags = ['tasks'];

/** Most turns a task session records answers for, and the longest answer kept. */
export const MAX_ANSWERS = 16;
export const MAX_ANSWER_CHARS = 65_536;

/** A task session's final answers (POST /sessions/{id}/answer) and its score (GET /sessions/{id}/score). */
export async function scoringRoutes(app: FastifyInstance): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const { sessions, tasks } = app;

  typed.post(
    '/sessions/:id/answer',
    {
      schema: {
        operationId: 'record_answer',
        summary: "Records the agent's final answer to the current turn of the session's task",
        tags,
        params: Params,
        body: z.strictObject({ text: z.string().max(MAX_ANSWER_CHARS).describe('The final answer, as the user would read it.') }),
        response: {
          200: z.object({
            session: z.string(),
            turn: z.number().int().describe('The turn answered, from 1.'),
            turns: z.number().int().describe('Turns the task has.'),
          }),
          ...PROBLEMS,
        },
      },
    },
    async (request) => {
      const session = sessions.require(request.params.id);
      const task = taskOf(session, tasks);
      const turns = 1 + (task.follow_ups?.length ?? 0);
      if (session.answers.length >= Math.min(turns, MAX_ANSWERS)) {
        throw problemError(409, 'already_answered', `${task.id} has ${turns} turn(s), all answered; create a new session to run it again.`);
      }
      sessions.recordAnswer(session, request.body.text);
      await sessions.durable();
      return { session: session.id, turn: session.answers.length, turns };
    },
  );

  typed.get(
    '/sessions/:id/score',
    {
      schema: {
        operationId: 'score_session',
        summary: "Scores the session's task from its journal, its databases and its answers (deterministic, no LLM)",
        tags,
        params: Params,
        response: { 200: SessionScoreSchema, ...PROBLEMS },
      },
    },
    async (request) => scoreSession(sessions.require(request.params.id), tasks),
  );
}
