import { defineKind, type Hook, type ResultHook, type ScenarioBase } from '../kind.js';
import { inRequestOrder } from '../request-order.js';

declare module '../kind.js' {
  interface ScenarioTypes<Db, Tool> {
    partial_failure: PartialFailureScenario<Db>;
  }
}

export interface PartialFailureScenario<Db = unknown> extends ScenarioBase<'partial_failure'> {
  /**
   * Which targets of the call fail this time (passengers, items, endpoints) and the arguments that apply
   * the others; null when the call has fewer than two targets.
   */
  split(hook: Hook<Db>): { args: Record<string, unknown>; failed: string[] } | null;
  /**
   * The answer, with a status per target as the API reports it. The kind then puts every per-target list
   * back in request order (the failed targets in their place, not after the applied ones).
   */
  report(hook: ResultHook<Db>, failed: readonly string[]): unknown;
}

/** Per call split: the targets that fail, and the arguments as the agent sent them. */
const failures = new WeakMap<object, { failed: string[]; requested: unknown }>();

/**
 * A write over several targets applies to some and fails for others; the answer says which, per target,
 * listing the targets in the order they were asked for as a clean answer does.
 */
export const partialFailure = defineKind<PartialFailureScenario>({
  kind: 'partial_failure',
  family: 'execution',
  scope: 'call',
  endsCall: true,
  retryable: true,
  sees: 'a successful answer whose per-target statuses say some targets failed',
  recovery: 'read the status of every target and retry the call for the ones that failed',
  needs: ['retry'],
  hint: () => 'Not every target of this call succeeded: check each one.',
  before(call) {
    const split = call.scenario.split(call.hook());
    if (!split) return;
    call.record({ failed: split.failed });
    failures.set(call.context, { failed: split.failed, requested: call.context.args });
    call.context.args = split.args;
  },
  after(call, result) {
    const split = failures.get(call.context);
    return split ? inRequestOrder(call.scenario.report(call.hook(result), split.failed), split.requested) : result;
  },
});
