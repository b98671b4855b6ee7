import type { Random } from '../../lib/random.js';
import { defineKind, type ResultHook, type ScenarioBase } from '../kind.js';
import { hinted } from '../faults.js';
import { type ListAt, listIn, listMember, withList } from '../lists.js';
import { withMembers } from '../members.js';

declare module '../kind.js' {
  interface ScenarioTypes<Db, Tool> {
    truncated: TruncatedScenario<Db>;
  }
}

export interface TruncatedScenario<Db = unknown> extends ScenarioBase<'truncated'> {
  /** The member holding the items; absent when the answer is the list itself. */
  list?: ListAt;
  /** The fewest items a list must have to be cut (default 2). */
  minimum?: number;
  /** Which items stay, when not a first part of the list (whole groups of it); none or all means no cut. */
  select?(items: readonly Record<string, unknown>[], random: Random): readonly Record<string, unknown>[];
  /**
   * How the API says there is more after the first `kept` items: members set on an object answer
   * (`has_more`, a cursor; a member its complete pages carry too, `has_more: false`, takes the new value
   * in its place), or for a list answer the new shape that carries them.
   */
  resume(hook: ResultHook<Db>, kept: readonly Record<string, unknown>[]): Record<string, unknown>;
}

/**
 * A partial list that signals there is more. Promoted items (sponsored results) hold no place in
 * it: only the organic ones are counted and cut.
 */
export const truncated = defineKind<TruncatedScenario>({
  kind: 'truncated',
  family: 'output',
  scope: 'call',
  retryable: false,
  sees: 'fewer items than asked for, with has_more / a next cursor / a truncation note',
  recovery: 'request the next page (or narrow the query) until nothing more is signalled',
  needs: ['paginate'],
  hint: () => 'The list is incomplete; ask for the next page.',
  after(call, result) {
    const { scenario } = call;
    const member = listMember(result, scenario.list);
    const list = listIn(result, member);
    if (!list) return result;
    const organic = list.filter((item) => item['sponsored'] !== true && item['promoted'] !== true);
    if (organic.length < Math.max(2, scenario.minimum ?? 2)) return result;
    const kept = scenario.select ? scenario.select(organic, call.random) : organic.slice(0, call.random.int(1, organic.length - 1));
    if (kept.length === 0 || kept.length === organic.length) return result;
    // Promoted items stay where they were, up to the last item kept.
    const [keep, real] = [new Set(kept), new Set(organic)];
    const last = list.indexOf(kept.at(-1)!);
    const shown = list.filter((item, i) => i <= last && (keep.has(item) || !real.has(item)));
    const resume = scenario.resume(call.hook(result), kept);
    call.record({ kept: kept.length, total: organic.length });
    if (member === undefined) return hinted(call, resume);
    return hinted(call, withMembers(withList(result, member, shown) as Record<string, unknown>, resume));
  },
});
