import { isObject } from '../../lib/object.js';
import type { Random } from '../../lib/random.js';
import { defineKind, type ResultHook, type ScenarioBase } from '../kind.js';
import { hinted } from '../faults.js';
import { withMembers } from '../members.js';

declare module '../kind.js' {
  interface ScenarioTypes<Db, Tool> {
    redundant: RedundantScenario<Db>;
  }
}

export interface RedundantScenario<Db = unknown> extends ScenarioBase<'redundant'> {
  /**
   * Near-duplicates of real fields: the same names under another prefix or casing, holding a cached,
   * rounded or differently defined value (a list price beside the price, a legacy status beside the
   * status). A member the answer already has (its clean value) takes the look-alike value in its place;
   * the others go where the call's seed puts them among the answer's members, before or after the
   * documented ones. Null when the answer has nothing to shadow.
   */
  shadow?(hook: ResultHook<Db>): Record<string, unknown> | null;
}

const LEGAL =
  'This response is provided for informational purposes only and may be cached. Information is subject to change ' +
  'without notice. Use of this API is subject to the Terms of Service and the Acceptable Use Policy. Contents may ' +
  'include data licensed from third parties. All trademarks are the property of their respective owners.';

const hex = (random: Random, length: number) => Array.from({ length }, () => random.int(0, 15).toString(16)).join('');

/** Bulk no one asked for: tracing, debug timings, links, legal boilerplate. */
/** `service` names the backend in the trace's spans. */
function bulk(random: Random, service: string) {
  const trace = hex(random, 32);
  return {
    _meta: {
      request_id: `req_${hex(random, 20)}`,
      api_version: '2024-05-01',
      region: random.pick(['us-east-1', 'us-west-2', 'eu-central-1']),
      cache: { status: random.pick(['MISS', 'HIT', 'STALE-REVALIDATED']), ttl_s: random.int(30, 600) },
    },
    _debug: {
      trace_id: trace,
      spans: Array.from({ length: random.int(4, 8) }, (_, i) => ({
        span_id: hex(random, 16),
        parent: i === 0 ? null : trace.slice(0, 16),
        name: random.pick(['db.query', 'cache.get', 'authz.check', 'render', 'serialize', `rpc.${service}`]),
        duration_us: random.int(40, 9000),
      })),
      shard: random.int(1, 128),
      build: `${random.int(2023, 2024)}.${random.int(1, 12)}.${random.int(1, 28)}-${hex(random, 7)}`,
    },
    _links: { self: { href: `/v2/resources/${hex(random, 12)}` }, docs: { href: '/docs/reference' }, status: { href: '/status' } },
    legal: LEGAL,
  };
}

/**
 * Look-alike members beside the documented ones, holding another definition of the same figure. A tool
 * with no declared look-alike (the kind switched on by name) gets the bulk instead: tracing, debug, links and
 * legal text. The two never come together: bulk that only trapped answers carried would tell the trap by its shape.
 */
export const redundant = defineKind<RedundantScenario>({
  kind: 'redundant',
  family: 'output',
  scope: 'call',
  retryable: false,
  sees: 'look-alike fields beside the documented ones holding another definition of the same figure; or tracing, debug and legal bulk',
  recovery: "read the documented fields as the tool's output schema defines them; a look-alike is another figure, bulk is noise",
  needs: ['documented_shape'],
  hint: (s) =>
    s.shadow
      ? 'Some fields here look alike but are defined differently; the answer is in the documented fields.'
      : 'Most of this response is metadata or legacy fields; the answer is in the documented fields.',
  generic: { kind: 'redundant' },
  after(call, result) {
    if (!isObject(result)) return result;
    if (!call.scenario.shadow) {
      const extra = bulk(call.random, call.context.domain);
      call.record({ added: Object.keys(extra) });
      return hinted(call, { ...extra, ...result });
    }
    const shadow = call.scenario.shadow(call.hook(result)) ?? {};
    call.record({ shadowed: Object.keys(shadow) });
    // Appended, not inserted: a member put among the others would move every documented member after it, and
    // positions that only trapped answers have are a tell. Where clean answers carry the look-alike, it keeps its place.
    return hinted(call, withMembers(result, shadow));
  },
});
