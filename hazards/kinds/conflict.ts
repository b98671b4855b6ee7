import type { Table } from '../../domains/table.js';
import type { Random } from '../../lib/random.js';
import { defineKind, type ScenarioBase } from '../kind.js';
import { hinted } from '../faults.js';

export interface ConflictScenario extends ScenarioBase<'conflict'> {
  /** The tool whose answer the domain policy trusts when the two disagree. */
  authority: string;
  /** This tool's answer disagreeing with the authority on one value; null when nothing to disagree on. */
  disagree(result: unknown, args: Record<string, unknown>, db: Record<string, Table<unknown>>, random: Random): { result: unknown; field: string; shown: unknown } | null;
}

/** Two sources disagree; the policy names the authoritative one, which a cross-check reaches. */
export const conflict = defineKind<ConflictScenario>({
  kind: 'conflict',
  family: 'cross-source',
  scope: 'call',
  retryable: false,
  sees: 'a value that another tool reports differently',
  recovery: 'cross-check with the source the domain policy names as authoritative and use its value',
  hint: (s) => `Another source reports this differently; the policy trusts ${s.authority}.`,
  after(call, result) {
    const disagreement = call.scenario.disagree(result, call.context.args as Record<string, unknown>, call.db, call.random);
    if (!disagreement) return result;
    call.record({ field: disagreement.field, shown: disagreement.shown, authority: call.scenario.authority });
    return hinted(call, disagreement.result);
  },
});
