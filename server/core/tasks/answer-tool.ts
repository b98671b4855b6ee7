import { z } from 'zod';
import { toolError } from '../../../domains/errors.js';
import { SERVER_ERRORS } from '../error-codes.js';
import type { AnyTool } from '../../../domains/tool.js';
import type { SubmittedAnswer } from '../../../scoring/score.js';
import type { TaskInstance } from './instance.js';

/** The tool a task session lists beside its domain's tools: the agent's final answer to the current request. */
export const SUBMIT_ANSWER = 'submit_answer';
/** The field of submit_answer for words to the user, which no verdict reads. */
export const MESSAGE = 'message';
/** The longest message kept. */
export const MAX_MESSAGE_CHARS = 65_536;

/** Where a turn stands after an answer: the turn answered, how many there are, and the next request, if any. */
export const AnswerReceipt = z.object({
  turn: z.number().int().describe('The request answered, from 1.'),
  turns: z.number().int().describe('Requests the task has.'),
  next_request: z.string().nullable().describe("The user's next request, or null when the task is over."),
});
export type AnswerReceipt = z.infer<typeof AnswerReceipt>;

/** Records a session's answer to its current turn; refuses one too many. */
export type RecordAnswer = (session: string, answer: SubmittedAnswer) => AnswerReceipt;

const description = (turns: number) =>
  "Submit your final answer to the user's current request, in the fields below, once you have done what the request needs. " +
  (turns > 1 ? `The task has ${turns} requests: answer each once; the answer to one brings the next. ` : 'Answer once. ') +
  `Put anything you want to tell the user in your own words in \`${MESSAGE}\`.`;

/** The submit_answer tool of each turn of a typed instance: its input is the turn's answer, with an optional message. */
export function answerTools(instance: TaskInstance, record: RecordAnswer): AnyTool[] {
  const turns = instance.turns.length;
  return instance.turns.map((turn): AnyTool => {
    if (!turn.answer) throw new Error(`${instance.id} is not answered by a typed answer`);
    if (Object.hasOwn(turn.answer.schema.shape, MESSAGE)) throw new Error(`${instance.id}: an answer field may not be named ${MESSAGE}`);
    const input = turn.answer.schema.extend({
      [MESSAGE]: z.string().max(MAX_MESSAGE_CHARS).optional().describe('Words for the user (never judged): the answer is in the other fields.'),
    });
    return {
      name: SUBMIT_ANSWER,
      title: 'Submit answer',
      description: description(turns),
      input,
      output: AnswerReceipt,
      errors: [SERVER_ERRORS.already_answered],
      mutates: false,
      run(args: Record<string, unknown>, _db: unknown, ctx) {
        const { [MESSAGE]: message, ...answer } = args;
        return record(ctx.session, { answer, ...(typeof message === 'string' ? { text: message } : {}) });
      },
    };
  });
}

/** The refusal of an answer to a task whose every request is answered. */
export const alreadyAnswered = (task: string, turns: number) =>
  toolError(SERVER_ERRORS.already_answered, `${task} has ${turns} request(s), all answered; create a new session to run it again.`);
