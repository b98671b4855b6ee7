import type { Random } from '../../lib/random.js';
import { defineKind, type ScenarioBase } from '../kind.js';
import { hinted } from '../faults.js';

export interface TruncatedScenario extends ScenarioBase<'truncated'> {
  /** A shorter result that says how to get the rest (has_more, a cursor, a note); null when too short to cut. */
  truncate(result: unknown, args: Record<string, unknown>, random: Random): { result: unknown; kept: number; total: number } | null;
}

/** A partial list that signals there is more; paginating or narrowing gets the rest. */
export const truncated = defineKind<TruncatedScenario>({
  kind: 'truncated',
  family: 'output',
  scope: 'call',
  retryable: false,
  sees: 'fewer items than asked for, with has_more / a next cursor / a truncation note',
  recovery: 'request the next page (or narrow the query) until nothing more is signalled',
  hint: () => 'The list is incomplete; ask for the next page.',
  after(call, result) {
    const cut = call.scenario.truncate(result, call.context.args as Record<string, unknown>, call.random);
    if (!cut) return result;
    call.record({ kept: cut.kept, total: cut.total });
    return hinted(call, cut.result);
  },
});
