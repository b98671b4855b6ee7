import t from 'tap';
import { expectHintsOnly, expectSeededSchedule, type JournalEntry, type Obj, type Script } from '../helpers/hazards.js';
import { findOrder, retailFixture } from '../helpers/retail.js';
import { startServer } from '../helpers/server.js';
import { redundant } from '../../hazards/kinds/redundant.js';

// redundant on get_user_details, get_product_details and track_order: tracing, debug, links and
// legal boilerplate around the real answer, whose fields stay intact.

type Test = Parameters<typeof startServer>[0];

const fixture = retailFixture();
const shipped = findOrder((o) => o.fulfillments.length > 0);
const product = Object.values(fixture.products)[0]!;
const BULK = ['_meta', '_debug', '_links', 'legal'];
const HINT = redundant.hint({ kind: 'redundant', tool: 'get_user_details' });

const CALLS: [string, Obj][] = [
  ['get_user_details', { user_id: shipped.user_id }],
  ['get_product_details', { product_id: product.product_id }],
  ['track_order', { order_id: shipped.order_id }],
];
const OTHER: [string, Obj] = ['get_order_details', { order_id: shipped.order_id }];

const canonicalOf = async (t: Test) => {
  const off = await startServer(t);
  const answers: Record<string, Obj> = {};
  for (const [tool, args] of [...CALLS, OTHER]) answers[tool] = (await off.call('retail', tool, args)).body;
  return answers;
};

t.test('fires when enabled, and only then', async (t) => {
  const canonical = await canonicalOf(t);
  for (const [tool] of CALLS) t.notOk(BULK.some((key) => key in canonical[tool]!), `hazards off: ${tool} has no bulk`);

  const none = await startServer(t, { hazardEnv: { HAZARDS: 'none' } });
  for (const [tool, args] of CALLS) t.same((await none.call('retail', tool, args)).body, canonical[tool], `HAZARDS=none: ${tool} canonical`);

  const server = await startServer(t, { hazardEnv: { HAZARDS: 'redundant' } });
  const session = await server.newSession({ id: 'rd' });
  for (const [tool, args] of CALLS) {
    const body = (await server.call('retail', tool, args, session)).body;
    t.same(Object.keys(body).filter((key) => !(key in canonical[tool]!)).sort(), [...BULK].sort(), `${tool}: the bulk is added`);
  }
  t.same((await server.call('retail', OTHER[0], OTHER[1], session)).body, canonical[OTHER[0]], 'HAZARDS=redundant: a tool without the assignment is untouched');

  // One tool by name; the alias too; and the generic scenario on a tool the domain did not assign.
  for (const [env, hit] of [
    [{ HAZARD__REDUNDANT__TRACK_ORDER: 'on' }, 'track_order'],
    [{ ENABLE__PARTIALLY_IRRELEVANT_INFORMATION__GET_PRODUCT_DETAILS: 'on' }, 'get_product_details'],
    [{ HAZARD__REDUNDANT__GET_ORDER_DETAILS: 'on' }, 'get_order_details'],
  ] as const) {
    const one = await startServer(t, { hazardEnv: env });
    const s = await one.newSession({ id: 'rd' });
    for (const [tool, args] of [...CALLS, OTHER]) {
      const body = (await one.call('retail', tool, args, s)).body;
      if (tool === hit) t.ok(BULK.every((key) => key in body), `${JSON.stringify(env)}: ${tool} carries the bulk`);
      else t.same(body, canonical[tool], `${JSON.stringify(env)}: ${tool} untouched`);
    }
  }
});

t.test('the journal records the fields added', async (t) => {
  const server = await startServer(t, { hazardEnv: { HAZARDS: 'redundant' } });
  const session = await server.newSession({ id: 'rd' });
  for (const [tool, args] of CALLS) await server.call('retail', tool, args, session);
  const journal = await server.journal<JournalEntry>(session);
  for (const [i, entry] of journal.entries()) {
    t.equal(entry.hazards.length, 1);
    t.match(entry.hazards[0], { kind: 'redundant', family: 'output', tool: CALLS[i]![0], call: 1, recovery: redundant.recovery, hint: HINT, retryable: false, added: BULK, shadowed: Array });
  }
});

t.test('recovery: the canonical fields are intact under the bulk', async (t) => {
  const canonical = await canonicalOf(t);
  const server = await startServer(t, { hazardEnv: { HAZARDS: 'redundant', HAZARD_SEED: '8' } });
  for (const id of ['a', 'b']) {
    const session = await server.newSession({ id });
    for (let round = 0; round < 3; round++) {
      for (const [tool, args] of CALLS) {
        const body = (await server.call('retail', tool, args, session)).body as Obj;
        for (const [key, value] of Object.entries(canonical[tool]!)) t.same(body[key], value, `${tool}.${key} intact`);
        const { _meta, _debug, _links, legal, ...rest } = body;
        t.same(rest, canonical[tool], `${tool}: dropping the bulk leaves the canonical answer`);
        t.ok(JSON.stringify({ _meta, _debug, _links, legal }).length > 700, 'the bulk is bulky');
        t.match(_debug, { trace_id: /^[0-9a-f]{32}$/, spans: Array });
        t.type(legal, 'string');
      }
    }
  }
});

/** Six rounds of the three tools with bulk. */
const SCRIPT: Script = { rounds: 6, round: () => CALLS };
const SEEDED = { HAZARD__REDUNDANT: '0.5', HAZARD_SEED: '1' };

t.test('the schedule is seeded: same seed, same schedule; another seed, another one; other sessions do not matter', async (t) => {
  await expectSeededSchedule(t, { env: SEEDED, script: SCRIPT, messages: { restartBodies: 'and the same answers, bulk included' } });
});

t.test('hints mode: the same schedule, only `_hint` added', async (t) => {
  await expectHintsOnly(t, { env: SEEDED, script: SCRIPT, hint: HINT });
});
