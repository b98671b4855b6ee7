import t, { type Test as Tap } from 'tap';
import { expectHintsOnly, expectSeededSchedule, type JournalEntry, type Obj, type Script } from '../helpers/hazards.js';
import { findOrder, retailFixture } from '../helpers/retail.js';
import { startServer } from '../helpers/server.js';
import { redundant } from '../../hazards/kinds/redundant.js';
import { retailHazards } from '../../domains/retail/hazards/index.js';

// redundant on get_user_details, get_product_details and track_order: the real answer, whose fields stay
// intact, with a look-alike field holding another value (an old record's email, list prices, the delivery date promised at checkout). Where the
// clean answer carries the look-alike too (with its benign value), it takes the other value in its place; else it
// comes after the documented members, whose places never move. A tool with no
// declared look-alike (the kind switched on by name) gets tracing, debug, links and legal bulk instead; the
// two never come together, so bulk never tells a trapped answer.

type Test = Parameters<typeof startServer>[0];

const fixture = retailFixture();
const shipped = findOrder((o) => o.fulfillments.some((f) => f.tracking_id.some((id) => fixture.tracking[id]?.estimated_delivery)));
const product = Object.values(fixture.products)[0]!;
const BULK = ['_meta', '_debug', '_links', 'legal'];
const HINT = redundant.hint(retailHazards.find((s) => s.kind === 'redundant' && s.tool === 'get_user_details') as Parameters<typeof redundant.hint>[0]);
/** The look-alike field each tool's answer gains, and the documented field it resembles. */
const SHADOW: Record<string, string> = { get_user_details: 'email_primary', get_product_details: 'price_range', track_order: 'estimated_delivery' };
const recoveryOf = (tool: string) => retailHazards.find((s) => s.kind === 'redundant' && s.tool === tool)?.recovery ?? redundant.recovery;

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
  for (const [tool] of CALLS)
    t.notOk(
      BULK.some((key) => key in canonical[tool]!),
      `hazards off: ${tool} has no bulk`,
    );

  const none = await startServer(t, { hazardEnv: { HAZARDS: 'none' } });
  for (const [tool, args] of CALLS) t.same((await none.call('retail', tool, args)).body, canonical[tool], `HAZARDS=none: ${tool} canonical`);

  const server = await startServer(t, { hazardEnv: { HAZARDS: 'redundant' } });
  const session = await server.newSession({ id: 'rd' });
  for (const [tool, args] of CALLS) {
    const body = (await server.call('retail', tool, args, session)).body;
    t.same(
      Object.keys(body)
        .filter((key) => !(key in canonical[tool]!))
        .sort(),
      SHADOW[tool]! in canonical[tool]! ? [] : [SHADOW[tool]!],
      `${tool}: a look-alike is added (unless the clean answer has it), and no bulk`,
    );
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
      if (tool !== hit) t.same(body, canonical[tool], `${JSON.stringify(env)}: ${tool} untouched`);
      else if (tool === OTHER[0]) t.same(Object.keys(body).slice(0, 4), BULK, `${JSON.stringify(env)}: ${tool}, with no look-alike declared, carries the bulk`);
      else {
        t.notOk(
          BULK.some((key) => key in body),
          `${JSON.stringify(env)}: ${tool} carries no bulk`,
        );
        t.not(JSON.stringify(body[SHADOW[tool]!]), JSON.stringify(canonical[tool]![SHADOW[tool]!]), `${JSON.stringify(env)}: ${tool} has its look-alike`);
      }
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
    const tool = CALLS[i]![0];
    t.match(entry.hazards[0], {
      kind: 'redundant',
      family: 'output',
      tool,
      call: 1,
      recovery: recoveryOf(tool),
      hint: HINT,
      retryable: false,
      shadowed: [SHADOW[tool]],
    });
    t.notOk('added' in entry.hazards[0]!, `${tool}: no bulk added`);
  }
});

t.test('recovery: the canonical fields are intact beside the look-alike', async (t) => {
  const canonical = await canonicalOf(t);
  const server = await startServer(t, { hazardEnv: { HAZARDS: 'redundant', HAZARD_SEED: '8' } });
  for (const id of ['a', 'b', 'c']) {
    const session = await server.newSession({ id });
    for (let round = 0; round < 3; round++) {
      for (const [tool, args] of CALLS) {
        const body = (await server.call('retail', tool, args, session)).body as Obj;
        for (const [key, value] of Object.entries(canonical[tool]!)) if (key !== SHADOW[tool]) t.same(body[key], value, `${tool}.${key} intact`);
        const { [SHADOW[tool]!]: shadow, ...rest } = body;
        const { [SHADOW[tool]!]: benign, ...documented } = canonical[tool]!;
        t.same(rest, documented, `${tool}: dropping the look-alike leaves the canonical answer`);
        t.same(Object.keys(rest), Object.keys(documented), `${tool}: the documented fields keep their order`);
        const keys = Object.keys(body);
        if (benign !== undefined) t.same(keys, Object.keys(canonical[tool]!), `${tool}: the look-alike the clean answer has keeps its place`);
        else t.equal(keys.at(-1), SHADOW[tool], `${tool}: the look-alike the clean answer lacks comes after every documented member`);
        expectShadow(t, tool, shadow, canonical[tool]!);
      }
    }
  }
});

t.test('the kind switched on by name, with no look-alike declared: bulk around the intact answer', async (t) => {
  const canonical = await canonicalOf(t);
  const server = await startServer(t, { hazardEnv: { HAZARD__REDUNDANT__GET_ORDER_DETAILS: 'on' } });
  const session = await server.newSession({ id: 'bulk' });
  const { _meta, _debug, _links, legal, ...rest } = (await server.call('retail', OTHER[0], OTHER[1], session)).body as Obj;
  t.same(rest, canonical[OTHER[0]], 'dropping the bulk leaves the canonical answer');
  t.ok(JSON.stringify({ _meta, _debug, _links, legal }).length > 700, 'the bulk is bulky');
  t.match(_debug, { trace_id: /^[0-9a-f]{32}$/, spans: Array });
  t.type(legal, 'string');
  t.match((await server.journal<JournalEntry>(session))[0]!.hazards[0], { kind: 'redundant', added: BULK });
});

/** Each look-alike differs from what the documented fields say, and says something a reader could take for it. */
function expectShadow(t: Tap, tool: string, shadow: any, documented: Obj) {
  if (tool === 'get_user_details') {
    t.not(shadow, documented['email'], 'email_primary is not the email on file');
    t.equal(shadow, String(documented['email']).replace(/\d+@/, '@'), "it is the old record's address, without the number");
  } else if (tool === 'get_product_details') {
    const prices = Object.values(documented['variants'] as Record<string, { price: number }>).map((v) => v.price);
    t.ok(shadow.min > Math.min(...prices) && shadow.max > Math.max(...prices), 'price_range holds list prices, above every price');
    t.match(shadow, { currency: 'USD' });
  } else {
    const estimate = (documented['shipments'] as { estimated_delivery: string | null }[]).find((s) => s.estimated_delivery)!.estimated_delivery!;
    t.ok(shadow < estimate && Date.parse(estimate) - Date.parse(shadow) <= 3 * 86_400_000, 'the promised date is 1 to 3 days before the estimate');
  }
}

/** Six rounds of the three tools with bulk. */
const SCRIPT: Script = { rounds: 6, round: () => CALLS };
const SEEDED = { HAZARD__REDUNDANT: '0.5', HAZARD_SEED: '1' };

t.test('the schedule is seeded: same seed, same schedule; another seed, another one; other sessions do not matter', async (t) => {
  await expectSeededSchedule(t, { env: SEEDED, script: SCRIPT, messages: { restartBodies: 'and the same answers, bulk included' } });
});

t.test('hints mode: the same schedule, only `_hint` added', async (t) => {
  await expectHintsOnly(t, { env: SEEDED, script: SCRIPT, hint: HINT });
});
