import t from 'tap';
import { z } from 'zod';
import { field } from '../../lib/answer-fields.js';
import { answerTools } from '../../server/core/tasks/answer-tool.js';
import type { TaskInstance } from '../../server/core/tasks/instance.js';

// The submit_answer tool of each turn: its input is the turn's answer and a message; a task answered in words has
// none, and an answer may not take the message's name.

const instance = (answers: (z.ZodObject | undefined)[]) =>
  ({ id: 'shop/001', turns: answers.map((schema) => ({ request: 'r', ...(schema ? { answer: { schema } } : {}) })) }) as unknown as TaskInstance;
const record = () => ({ turn: 1, turns: 2, next_request: 'next' });

t.test('one tool per turn, the answer fields and a message as its input', async (t) => {
  const tools = answerTools(instance([z.strictObject({ n: field.count('n') }), z.strictObject({ ok: field.flag('ok') })]), record);
  t.same(
    tools.map((tool) => Object.keys((tool.input as z.ZodObject).shape)),
    [
      ['n', 'message'],
      ['ok', 'message'],
    ],
  );
  t.match(tools[0]!.description, /The task has 2 requests/);
  t.same(tools[0]!.run({ n: 1, message: 'hi' }, undefined, { session: 's', now: () => new Date(0), compat: 'off' }), record());
});

t.test('a task answered in words has no submit_answer; an answer field may not be called message', async (t) => {
  t.throws(() => answerTools(instance([undefined]), record), /not answered by a typed answer/);
  t.throws(() => answerTools(instance([z.strictObject({ message: field.text('m') })]), record), /may not be named message/);
});
