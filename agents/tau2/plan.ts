import { communicateInfo, goldActions, type Tau2Task } from '../../lib/tau2-task.js';
import type { Plan } from '../agent.js';

/** The final answer of a replayed task: the facts tau2-bench expects to be told, in one sentence. */
export const tau2Answer = (facts: readonly string[]): string =>
  facts.length === 0 ? 'Your request is handled.' : `Your request is handled: ${facts.join('; ')}.`;

/**
 * The plan of a tau2-bench task: its gold actions in order — reads with `call`, writes with `write` (the
 * oracle's idempotency key and careful retries; the naive agent's single literal call) — then the answer
 * with the facts to communicate.
 */
/** Calls at most per action: several kinds may strike one tool in a row (a renamed parameter, then a failure). */
const TRIES = 8;

export function tau2Plan(task: Tau2Task, writes: ReadonlySet<string>): Plan {
  return async (agent) => {
    for (const action of goldActions(task)) {
      const args = { ...(action.arguments ?? {}) };
      if (writes.has(action.name)) await agent.write(action.name, args, { tries: TRIES });
      else await agent.call(action.name, args, { tries: TRIES });
    }
    return tau2Answer(communicateInfo(task));
  };
}
