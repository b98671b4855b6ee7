import { communicateInfo, type ExpectedRefusal, goldActions, type Tau2Task } from '../../lib/tau2-task.js';
import type { Plan } from '../agent.js';
import { Blocked } from '../calls.js';

/** The final answer of a replayed task: the facts tau2-bench expects to be told, in one sentence. */
const tau2Answer = (facts: readonly string[]): string => (facts.length === 0 ? 'Your request is handled.' : `Your request is handled: ${facts.join('; ')}.`);

/** Calls at most per action: several kinds may strike one tool in a row (a renamed parameter, then a failure). */
const TRIES = 8;

/** A task's gold, as the scripted agents replay it: the task, and the gold actions tau2-bench itself refuses (by position). */
export interface Tau2Gold {
  task: Tau2Task;
  refused: ReadonlyMap<number, Pick<ExpectedRefusal, 'status' | 'code'>>;
}

/** Whether a refusal is the one tau2-bench gives the action on the hazard-free database. */
const expected = (error: unknown, refusal: Pick<ExpectedRefusal, 'status' | 'code'> | undefined) => {
  if (!refusal || !(error instanceof Blocked) || !error.reply) return false;
  const body = error.reply.body as { code?: unknown } | null;
  return error.reply.status === refusal.status && typeof body === 'object' && body !== null && (body.code ?? '') === refusal.code;
};

/**
 * The plan of a tau2-bench task: its gold actions in order — reads with `call`, writes with `write` (the
 * oracle's idempotency key and careful retries; the naive agent's single literal call) — then the answer
 * with the facts to communicate. A gold action tau2-bench itself refuses (a lookup it answers "not found"
 * on purpose, a write meant to fail) is an expected outcome: once the tools give that refusal, the plan
 * goes on. Any other failure, a hazard's included, is retried by the careful agent or blocks.
 */
export function tau2Plan({ task, refused }: Tau2Gold, writes: ReadonlySet<string>): Plan {
  return async (agent) => {
    for (const [i, action] of goldActions(task).entries()) {
      const args = { ...(action.arguments ?? {}) };
      try {
        if (writes.has(action.name)) await agent.write(action.name, args, { tries: TRIES });
        else await agent.call(action.name, args, { tries: TRIES });
      } catch (error) {
        if (!expected(error, refused.get(i))) throw error;
      }
    }
    return tau2Answer(communicateInfo(task));
  };
}
