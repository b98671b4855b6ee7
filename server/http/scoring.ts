import type { FastifyInstance } from 'fastify';
import { EXAMPLE_ANSWER } from '../../domains/examples.js';
import { bodyExample } from '../core/openapi.js';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PROBLEMS } from '../core/problem-responses.js';
import { AnswerReceipt } from '../core/tasks/answer-tool.js';
import { AnswerBody, submitAnswer } from '../core/tasks/answers.js';
import { scoreSession } from '../core/tasks/judge.js';
import { Params } from './session-schemas.js';
import { SessionScoreSchema } from './task-schemas.js';

const tags = ['tasks'];

/** A task session's final answers (POST /sessions/{id}/answer) and its score (GET /sessions/{id}/score). */
export async function scoringRoutes(app: FastifyInstance): Promise<void> {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const { sessions } = app;

  typed.post(
    '/sessions/:id/answer',
    {
      schema: {
        operationId: 'record_answer',
        summary: "Records the agent's final answer to the current turn of the session's task (as submit_answer does)",
        tags,
        params: Params,
        body: AnswerBody,
        ...bodyExample(EXAMPLE_ANSWER),
        response: { 200: AnswerReceipt.extend({ session: z.string() }), ...PROBLEMS },
      },
    },
    async (request) => {
      const session = sessions.require(request.params.id);
      const receipt = submitAnswer(sessions, session, request.body);
      await sessions.durable();
      return { session: session.id, ...receipt };
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
    async (request) => scoreSession(sessions.require(request.params.id)),
  );
}
