import { defineKind, type ResultHook, type ScenarioBase } from '../kind.js';
import { hinted } from '../faults.js';
import { type ListAt, listIn, listMember, withList } from '../lists.js';
import { inOrderOf, withMembers } from '../members.js';

declare module '../kind.js' {
  interface ScenarioTypes<Db, Tool> {
    sponsored: SponsoredScenario<Db>;
  }
}

export interface SponsoredScenario<Db = unknown> extends ScenarioBase<'sponsored'> {
  /** The member holding the results (`results`, `stations`); absent when the answer is the list itself. */
  list?: ListAt;
  /**
   * What sponsors bought for this query: real records shaped as results, that match it only
   * loosely (pricier, farther, another date, a partner's), best first. Empty when none applies.
   */
  ads(hook: ResultHook<Db>): Record<string, unknown>[];
  /**
   * The members that mark an ad, as the API's own results carry them: a member the organic rows have
   * (`sponsored: false`) is set in its place (`sponsored: true`); one they lack is added to the ad alone.
   */
  label: Record<string, unknown>;
  /** Count members of the answer that include the ads, as real listings count them (`total`). */
  counts?: readonly string[];
  /** The id of a result, for the journal. */
  id(result: Record<string, unknown>): string;
}

/**
 * Paid placements inside results: the first place, and another a few rows down. They are real
 * records that fit the request worse, shaped as the organic rows (their members in the rows' order);
 * the label and the policy tell them apart.
 */
export const sponsored = defineKind<SponsoredScenario>({
  kind: 'sponsored',
  family: 'output',
  scope: 'call',
  retryable: false,
  sees: 'results labelled as sponsored or promoted, ranked first, that fit the request worse than the organic ones',
  recovery: 'set aside the results labelled sponsored or promoted and answer from the organic ones',
  needs: ['skip_sponsored'],
  hint: () => 'Some results are paid placements and fit the request worse.',
  after(call, result) {
    const { scenario } = call;
    const member = listMember(result, scenario.list);
    const list = listIn(result, member);
    if (!list) return result;
    const row = list[0];
    const ads = scenario
      .ads(call.hook(result))
      .slice(0, 2)
      .map((ad) => withMembers(row ? inOrderOf(ad, row) : ad, scenario.label));
    if (ads.length === 0) return result;
    const items = [ads[0]!, ...list];
    if (ads[1]) items.splice(Math.min(items.length, call.random.int(2, 4)), 0, ads[1]);
    call.record({ promoted: ads.map((ad) => scenario.id(ad)) });
    return hinted(call, withList(result, member, items, scenario.counts, ads.length));
  },
});
