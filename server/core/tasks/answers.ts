import { z } from 'zod';
import type { SubmittedAnswer } from '../../../scoring/score.js';
import { invalidInput, ProblemError, problemError, refusalOf } from '../problem.js';
import type { Session } from '../sessions/session.js';
import type { SessionStore } from '../sessions/store.js';
import { type AnswerReceipt, alreadyAnswered } from './answer-tool.js';
import { instanceOf } from './judge.js';

/** Most turns a task session records answers for, and the longest text kept with an answer. */
export const MAX_ANSWERS = 16;
export const MAX_ANSWER_CHARS = 65_536;

/** The fields of an answer as POST /sessions/{id}/answer and OpenEnv's answer action take it. */
export const AnswerFields = {
  answer: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("A typed task's answer: the fields its answer schema names (GET /tasks/{domain}/{number} answer_schemas; submit_answer takes the same)."),
  text: z
    .string()
    .max(MAX_ANSWER_CHARS)
    .optional()
    .describe('Words for the user. A typed task never judges them; a task answered in words (tau2-bench) is judged by them.'),
};

/** An answer holds a typed answer, words, or both. */
export const saysSomething: [(body: { answer?: unknown; text?: unknown }) => boolean, { message: string; path: string[] }] = [
  (body) => body.answer !== undefined || body.text !== undefined,
  { message: 'an answer, a text, or both', path: ['answer'] },
];

export const AnswerBody = z.strictObject(AnswerFields).refine(...saysSomething);

/**
 * Records an answer to the session's current turn: a typed task's answer must fit the turn's schema (400
 * naming the field otherwise), a task answered in words needs its text; an answer too many is refused (409).
 * Every way to answer (submit_answer, POST /sessions/{id}/answer, OpenEnv's answer action) comes here.
 */
export function submitAnswer(sessions: SessionStore, session: Session, submitted: SubmittedAnswer): AnswerReceipt {
  const instance = instanceOf(session);
  const turns = instance.turns.length;
  if (session.answers.length >= Math.min(turns, MAX_ANSWERS)) throw alreadyAnswered(instance.id, turns);
  const turn = instance.turns[session.answers.length]!;
  let answer: SubmittedAnswer = submitted;
  if (turn.answer) {
    if (submitted.answer === undefined)
      throw problemError(400, 'invalid_input', `answer: ${instance.id} is answered with the fields of its answer schema, not words alone`, { field: 'answer' });
    const parsed = turn.answer.schema.safeParse(submitted.answer);
    if (!parsed.success) throw new ProblemError(invalidInput(refusalOf(turn.answer.schema, submitted.answer)!, 'answer'));
    answer = { answer: parsed.data, ...(submitted.text === undefined ? {} : { text: submitted.text }) };
  } else if (submitted.text === undefined) {
    throw problemError(400, 'invalid_input', `text: ${instance.id} is answered in words`, { field: 'text' });
  }
  sessions.recordAnswer(session, answer);
  const answered = session.answers.length;
  return { turn: answered, turns, next_request: instance.turns[answered]?.request ?? null };
}
