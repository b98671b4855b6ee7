import type { Random } from '../../lib/random.js';
import { defineKind, type ResultHook, type ScenarioBase } from '../kind.js';
import { hinted } from '../faults.js';

declare module '../kind.js' {
  interface ScenarioTypes<Db, Tool> {
    redundant: RedundantScenario<Db>;
  }
}

export interface RedundantScenario<Db = unknown> extends ScenarioBase<'redundant'> {
  /**
   * Near-duplicates of real fields, placed before them: the same names under another prefix or
   * casing, holding a cached, rounded or differently defined value (a list price beside the price,
   * a legacy status beside the status). Null when the answer has nothing to shadow.
   */
  shadow?(hook: ResultHook<Db>): Record<string, unknown> | null;
}

const LEGAL =
  'This response is provided for informational purposes only and may be cached. Information is subject to change ' +
  'without notice. Use of this API is subject to the Terms of Service and the Acceptable Use Policy. Contents may ' +
  'include data licensed from third parties. All trademarks are the property of their respective owners.';

const hex = (random: Random, length: number) => Array.from({ length }, () => random.int(0, 15).toString(16)).join('');

/** Bulk no one asked for: tracing, debug timings, links, legal boilerplate. */
function bulk(random: Random) {
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
        name: random.pick(['db.query', 'cache.get', 'authz.check', 'render', 'serialize', 'rpc.inventory']),
        duration_us: random.int(40, 9000),
      })),
      shard: random.int(1, 128),
      build: `${random.int(2023, 2024)}.${random.int(1, 12)}.${random.int(1, 28)}-${hex(random, 7)}`,
    },
    _links: { self: { href: `/v2/resources/${hex(random, 12)}` }, docs: { href: '/docs/reference' }, status: { href: '/status' } },
    legal: LEGAL,
  };
}

/** Bulky irrelevant fields around the real answer. */
export const redundant = defineKind<RedundantScenario>({
  kind: 'redundant',
  family: 'output',
  scope: 'call',
  retryable: false,
  sees: 'tracing, debug, link and legal fields around the real answer, and look-alike fields holding other values',
  recovery: "read the documented fields (the tool's output schema); ignore look-alikes, metadata and boilerplate",
  needs: ['documented_shape'],
  hint: () => 'Most of this response is metadata or legacy fields; the answer is in the documented fields.',
  generic: { kind: 'redundant' },
  after(call, result) {
    if (typeof result !== 'object' || result === null || Array.isArray(result)) return result;
    const extra = bulk(call.random);
    const shadow = call.scenario.shadow?.(call.hook(result)) ?? {};
    call.record({ added: Object.keys(extra), shadowed: Object.keys(shadow) });
    return hinted(call, { ...extra, ...shadow, ...result });
  },
});
