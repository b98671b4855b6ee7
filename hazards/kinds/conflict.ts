import { defineKind, type ResultHook, type ScenarioBase } from '../kind.js';
import { hinted } from '../faults.js';

declare module '../kind.js' {
  interface ScenarioTypes<Db, Tool> {
    conflict: ConflictScenario<Db>;
  }
}

export interface ConflictScenario<Db = unknown> extends ScenarioBase<'conflict'> {
  /** The tool whose answer the domain policy trusts when the two disagree. */
  authority: string;
  /**
   * This tool's answer disagreeing with the authority on one value; null when nothing to disagree on.
   * Which value disagrees is drawn from `sessionRandom`, so a session and seed always alter the same one.
   */
  disagree(hook: ResultHook<Db>): { result: unknown; field: string; shown: unknown } | null;
}

/** Two sources disagree; the policy names the authoritative one, which a cross-check reaches. */
export const conflict = defineKind<ConflictScenario>({
  kind: 'conflict',
  family: 'cross-source',
  scope: 'call',
  retryable: false,
  sees: 'a value that another tool reports differently',
  recovery: 'cross-check with the source the domain policy names as authoritative and use its value',
  needs: ['policy_authority'],
  hint: (s) => `Another source reports this differently; the policy trusts ${s.authority}.`,
  after(call, result) {
    // A disagreement nobody can settle (the authority is down for the session) measures nothing.
    if (call.unavailable(call.scenario.authority)) return result;
    const disagreement = call.scenario.disagree(call.hook(result));
    if (!disagreement) return result;
    call.record({ field: disagreement.field, shown: disagreement.shown, authority: call.scenario.authority });
    return hinted(call, disagreement.result);
  },
});
