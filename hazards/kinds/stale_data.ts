import { defineKind, type ResultHook, type ScenarioBase } from '../kind.js';
import { isObject } from '../../lib/object.js';
import { hinted } from '../faults.js';
import { inOrderOf } from '../members.js';

declare module '../kind.js' {
  interface ScenarioTypes<Db, Tool> {
    stale_data: StaleDataScenario<Db>;
  }
}

export interface StaleDataScenario<Db = unknown> extends ScenarioBase<'stale_data'> {
  /**
   * An answer from an old cache: a detectably inconsistent value and an old as_of. Members the fresh
   * answer has too (`as_of`, `cache`) take the cached values; the kind keeps them in the fresh answer's order.
   */
  stale(hook: ResultHook<Db>): { result: unknown; field: string } | null;
}

/** A cached answer with an inconsistency a careful reader can see; a fresh call is right. */
export const staleData = defineKind<StaleDataScenario>({
  kind: 'stale_data',
  family: 'output',
  scope: 'call',
  retryable: true,
  sees: 'a value that disagrees with the rest of the answer (a total that is not the sum of its lines), an old as_of',
  recovery: 'notice the inconsistency and call again (or compute from the parts); a fresh answer is consistent',
  needs: ['check_consistency'],
  hint: () => 'This answer came from a stale cache.',
  after(call, result) {
    const stale = call.scenario.stale(call.hook(result));
    if (!stale) return result;
    call.record({ field: stale.field });
    return hinted(call, isObject(stale.result) && isObject(result) ? inOrderOf(stale.result, result) : stale.result);
  },
});
