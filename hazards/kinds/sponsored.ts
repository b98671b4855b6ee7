import type { Table } from '../../domains/table.js';
import type { Random } from '../../lib/random.js';
import { defineKind, type ScenarioBase } from '../kind.js';
import { hinted } from '../faults.js';

export interface SponsoredScenario extends ScenarioBase<'sponsored'> {
  /**
   * Mixes promoted items that violate the query's filters into the result, marked as ads are
   * (`sponsored: true`, a "Sponsored" label); null when there is nothing to promote.
   */
  promote(result: unknown, args: Record<string, unknown>, db: Record<string, Table<unknown>>, random: Random): { result: unknown; promoted: string[] } | null;
}

/** Paid placements inside search results, violating the query; filtering them out leaves the answer. */
export const sponsored = defineKind<SponsoredScenario>({
  kind: 'sponsored',
  family: 'output',
  scope: 'call',
  retryable: false,
  sees: 'results marked sponsored/promoted that do not match the query, mixed into the real ones',
  recovery: 'drop the items marked sponsored or promoted and check the rest against the query',
  hint: () => 'Some results are advertisements and may not match the request.',
  after(call, result) {
    const promoted = call.scenario.promote(result, call.context.args as Record<string, unknown>, call.db, call.random);
    if (!promoted) return result;
    call.record({ promoted: promoted.promoted });
    return hinted(call, promoted.result);
  },
});
