import t from 'tap';
import { ORDER_STATUSES } from '../../domains/retail/schema.js';
import { expectHintsOnly, expectIndifferentToNeighbours, hitCalls, runAlone, type JournalEntry, type Obj, type Script } from '../helpers/hazards.js';
import { findOrder, findUser } from '../helpers/retail.js';
import { startServer } from '../helpers/server.js';

// output_drift, session-wide from the second call of the tool: get_order_details answers `state`
// and integer cents; get_user_details wraps the profile in {data, meta}. Same information.

type Test = Parameters<typeof startServer>[0];

// One order of each status: payments, refunds (cancelled), an exchange's price difference.
const orders = ORDER_STATUSES.map((status) => findOrder((o) => o.status === status));
const exchanged = findOrder((o) => o.exchange_price_difference != null);
if (!orders.includes(exchanged)) orders.push(exchanged);
const user = findUser((u) => u.orders.length > 0 && Object.values(u.payment_methods).some((m) => m.source === 'gift_card'));

const ORDER_CHANGE = 'status is now state; amounts are integer cents (price_cents, amount_cents)';
const USER_CHANGE = 'the profile is now inside data, with a meta envelope';

/** A drifted order mapped back to the canonical shape, checking the new shape on the way. */
function orderFromCents(t: { ok(v: unknown, m: string): boolean; equal(a: unknown, b: unknown, m: string): boolean }, drifted: Obj): Obj {
  const { state, currency, items, payment_history, exchange_price_difference_cents, ...rest } = drifted;
  t.equal(currency, 'USD', 'a currency field says the unit');
  t.ok('status' in rest === false && 'exchange_price_difference' in rest === false, 'the old fields are gone');
  const whole = [...items.map((i: Obj) => i['price_cents']), ...payment_history.map((p: Obj) => p['amount_cents'])];
  t.ok(whole.every(Number.isInteger), 'amounts are integer cents');
  return {
    ...rest,
    status: state,
    items: items.map(({ price_cents, ...item }: Obj) => ({ ...item, price: price_cents / 100 })),
    payment_history: payment_history.map(({ amount_cents, ...payment }: Obj) => ({ ...payment, amount: amount_cents / 100 })),
    exchange_price_difference: exchange_price_difference_cents == null ? null : exchange_price_difference_cents / 100,
  };
}

const canonicalOrders = async (t: Test) => {
  const off = await startServer(t);
  const answers: Obj[] = [];
  for (const order of orders) answers.push((await off.call('retail', 'get_order_details', { order_id: order.order_id })).body);
  return { answers, user: (await off.call('retail', 'get_user_details', { user_id: user.user_id })).body as Obj };
};

t.test('fires when enabled (from the second call of the tool on), and only then', async (t) => {
  const canonical = await canonicalOrders(t);
  t.ok(
    canonical.answers.every((o) => typeof o['status'] === 'string' && !('state' in o)),
    'hazards off: canonical orders',
  );

  const none = await startServer(t, { hazardEnv: { HAZARDS: 'none' } });
  for (let i = 0; i < 3; i++)
    t.same(
      (await none.call('retail', 'get_order_details', { order_id: orders[0]!.order_id })).body,
      canonical.answers[0],
      `HAZARDS=none, call ${i + 1}: canonical`,
    );

  const server = await startServer(t, { hazardEnv: { HAZARD__OUTPUT_DRIFT__GET_ORDER_DETAILS: 'on' } });
  const session = await server.newSession({ id: 'od' });
  const first = (await server.call('retail', 'get_order_details', { order_id: orders[0]!.order_id }, session)).body;
  t.same(first, canonical.answers[0], 'call 1: the old shape (onset 2)');
  for (const [i, order] of orders.entries()) {
    const body = (await server.call('retail', 'get_order_details', { order_id: order.order_id }, session)).body;
    t.ok('state' in body && !('status' in body), `call ${i + 2}: drifted`);
  }
  for (let i = 0; i < 3; i++)
    t.same(
      (await server.call('retail', 'get_user_details', { user_id: user.user_id }, session)).body,
      canonical.user,
      `get_user_details call ${i + 1}: untouched`,
    );

  const both = await startServer(t, { hazardEnv: { HAZARDS: 'output_drift' } });
  const s2 = await both.newSession({ id: 'od' });
  t.same((await both.call('retail', 'get_user_details', { user_id: user.user_id }, s2)).body, canonical.user, 'user call 1: the old shape');
  const enveloped = (await both.call('retail', 'get_user_details', { user_id: user.user_id }, s2)).body;
  t.same(Object.keys(enveloped).sort(), ['data', 'meta'], 'user call 2: an envelope');
  t.same(
    (await both.call('retail', 'get_order_details', { order_id: orders[0]!.order_id }, s2)).body,
    canonical.answers[0],
    "the order tool's own count starts at 1",
  );
});

t.test('the journal records the change on every drifted call', async (t) => {
  const server = await startServer(t, { hazardEnv: { HAZARDS: 'output_drift' } });
  const session = await server.newSession({ id: 'od' });
  for (let i = 0; i < 3; i++) {
    await server.call('retail', 'get_order_details', { order_id: orders[i]!.order_id }, session);
    await server.call('retail', 'get_user_details', { user_id: user.user_id }, session);
  }
  const journal = await server.journal<JournalEntry>(session);
  t.same(
    journal.map((e) => e.hazards.length),
    [0, 0, 1, 1, 1, 1],
    'nothing on the first call of each tool, then every call',
  );
  for (const entry of journal.slice(2)) {
    const change = entry.tool === 'get_order_details' ? ORDER_CHANGE : USER_CHANGE;
    t.same(entry.hazards, [
      {
        kind: 'output_drift',
        family: 'output',
        tool: entry.tool,
        call: entry.call,
        recovery: 'read the new shape (field names, units) instead of assuming the old one; verify values',
        hint: `The response format changed (${change}).`,
        retryable: false,
        change,
      },
    ]);
  }
});

t.test('recovery: the drifted answer carries the same information as the canonical one', async (t) => {
  const canonical = await canonicalOrders(t);
  const server = await startServer(t, { hazardEnv: { HAZARDS: 'output_drift' } });
  const session = await server.newSession({ id: 'od' });
  await server.call('retail', 'get_order_details', { order_id: orders[0]!.order_id }, session);
  await server.call('retail', 'get_user_details', { user_id: user.user_id }, session);
  for (const [i, order] of orders.entries()) {
    const drifted = (await server.call('retail', 'get_order_details', { order_id: order.order_id }, session)).body as Obj;
    t.same(orderFromCents(t, drifted), canonical.answers[i], `${order.order_id} (${order.status}): mapped back, the canonical order`);
  }
  t.ok(
    canonical.answers.some((o) => o['exchange_price_difference'] != null),
    'an exchange price difference was among them',
  );
  t.ok(
    canonical.answers.some((o) => o['payment_history'].some((p: Obj) => p['transaction_type'] === 'refund')),
    'and a refund',
  );
  const enveloped = (await server.call('retail', 'get_user_details', { user_id: user.user_id }, session)).body as Obj;
  t.same(enveloped['data'], canonical.user, 'the profile inside data is the canonical profile');
  t.same(enveloped['meta'], { api_version: '2024-06-01', object: 'user' });
});

/** Eight calls of get_order_details, going round the orders. */
const SCRIPT: Script = { rounds: 8, round: (i) => [['get_order_details', { order_id: orders[i % orders.length]!.order_id }]] };

t.test('the schedule is seeded: same seed, same schedule; another seed, another one; other sessions do not matter', async (t) => {
  const env = { HAZARD__OUTPUT_DRIFT__GET_ORDER_DETAILS: '0.5', HAZARD_SEED: '1' };
  const first = await runAlone(t, env, SCRIPT);
  const again = await runAlone(t, env, SCRIPT);
  t.same(again.events, first.events, 'same seed across a restart: same drift');
  t.same(again.bodies, first.bodies, 'and the same answers');

  // Drawn once per session: either every call from the second on drifts, or none does.
  const schedules = new Map<string, string>();
  for (let seed = 1; seed <= 20 && new Set(schedules.values()).size < 2; seed++) {
    const run = await runAlone(t, { ...env, HAZARD_SEED: String(seed) }, SCRIPT);
    const hits = hitCalls(run.events);
    t.ok(hits.join() === '' || hits.join() === '2,3,4,5,6,7,8', `seed ${seed}: all or nothing from the onset (${hits.join(',') || 'none'})`);
    schedules.set(String(seed), hits.join());
  }
  t.equal(
    new Set(schedules.values()).size,
    2,
    `p=0.5: some seeds drift the session, others do not (${[...schedules].map(([s, h]) => `${s}:${h || 'none'}`).join(' ')})`,
  );

  const active = { ...env, HAZARD_SEED: [...schedules].find(([, hits]) => hits !== '')![0] };
  const alone = await runAlone(t, active, SCRIPT);
  await expectIndifferentToNeighbours(t, active, SCRIPT, alone, { events: "other sessions' calls do not change the session's schedule (nor its onset)" });
});

t.test('hints mode: the same schedule, only `_hint` added', async (t) => {
  let drifted = 0;
  for (const seed of ['1', '2', '3', '4', '5']) {
    const env = { HAZARD__OUTPUT_DRIFT__GET_ORDER_DETAILS: '0.5', HAZARD_SEED: seed };
    drifted += await expectHintsOnly(t, { env, script: SCRIPT, hint: `The response format changed (${ORDER_CHANGE}).`, label: `seed ${seed}: ` });
  }
  t.ok(drifted > 0, 'some of these sessions drifted');
});
