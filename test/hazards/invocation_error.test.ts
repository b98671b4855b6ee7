import t from 'tap';
import { expectHintsKeepDraws, expectSeededSessionDraws, lastEntry, sessionIds, type JournalEntry, type Probe, type SessionDraws } from '../helpers/hazards.js';
import { findOrder, findUser, retailFixture } from '../helpers/retail.js';
import { startServer, type TestServer } from '../helpers/server.js';

// invocation_error (invocation, session-wide): a correct call is refused until it carries the
// argument the error names; the refused call changes nothing, the argument never reaches the tool.
// Retail: checkout and cancel_pending_order (an "idempotency_key" of 8+ characters, 428),
// get_product_details ("api_version": "2024-05-01", 400).

const db = retailFixture();
const buyer = findUser(
  (u) =>
    (db.carts[u.user_id]?.items.length ?? 0) > 0 &&
    db.carts[u.user_id]!.items.every((line) => db.products[line.product_id]?.variants[line.item_id]?.available) &&
    Object.values(u.payment_methods).some((m) => m.source !== 'gift_card'),
);
const card = Object.values(buyer.payment_methods).find((m) => m.source !== 'gift_card')!.id;
const pending = findOrder((o) => o.status === 'pending' && o.user_id !== buyer.user_id);
const product = Object.values(db.products)[0]!;
const checkoutArgs = { user_id: buyer.user_id, payment_method_id: card };
const cancelArgs = { order_id: pending.order_id, reason: 'no longer needed' };
const KEY = 'b1946ac9-2f4e-4c1a-9e0a-5d2c7f3e8a11';

const listings = async (server: TestServer, session: string) => ({
  openai: (await server.request('GET', `/s/${session}/retail/tools?format=openai`)).body,
  native: (await server.request('GET', `/s/${session}/retail/tools`)).body,
  openapi: (await server.request('GET', `/s/${session}/retail/openapi.json`)).body,
});

const SESSIONS = sessionIds('inv');
const SEEDED = { HAZARD__INVOCATION_ERROR__GET_PRODUCT_DETAILS: '0.5', HAZARD_SEED: '4' };

/** A session's [a call without api_version is refused, the call with it is accepted]. */
const draw: Probe<[boolean, boolean]> = async (server, session) => {
  const without = await server.call('retail', 'get_product_details', { product_id: product.product_id }, session);
  const withIt = await server.call('retail', 'get_product_details', { product_id: product.product_id, api_version: '2024-05-01' }, session);
  return [without.status === 400 && without.body.code === 'api_version_required', withIt.status === 200];
};
const DRAWS: SessionDraws<[boolean, boolean]> = { env: SEEDED, sessions: SESSIONS, probe: draw, isOn: ([on]) => on };

t.test('invocation_error fires only when enabled, and only on the tool it is enabled for', async (t) => {
  const off = await startServer(t);
  t.equal((await off.call('retail', 'checkout', checkoutArgs, 'plain')).status, 200, 'off: checkout needs no key');
  t.equal((await off.call('retail', 'cancel_pending_order', cancelArgs, 'plain')).status, 200, 'off: cancel needs no key');
  t.equal((await off.call('retail', 'get_product_details', { product_id: product.product_id }, 'plain')).status, 200, 'off: no api_version');
  const extra = await off.call('retail', 'get_product_details', { product_id: product.product_id, api_version: '2024-05-01' }, 'plain');
  t.match([extra.status, extra.body.errors], [400, [{ field: 'api_version', message: /unknown field/ }]], 'off: the argument is not part of the contract');
  t.ok(
    (await off.journal<JournalEntry>('plain')).every((entry) => entry.hazards.length === 0),
    'off: nothing journaled',
  );

  const one = await startServer(t, { hazardEnv: { HAZARD__INVOCATION_ERROR__GET_PRODUCT_DETAILS: 'on', HAZARD_SEED: '1' } });
  t.match(
    await one.call('retail', 'get_product_details', { product_id: product.product_id }, 'one'),
    { status: 400, body: { code: 'api_version_required' } },
    'on: get_product_details is refused',
  );
  t.equal((await one.call('retail', 'checkout', checkoutArgs, 'one')).status, 200, 'checkout: untouched');
  t.equal((await one.call('retail', 'cancel_pending_order', cancelArgs, 'one')).status, 200, 'cancel_pending_order: untouched');
  t.same((await lastEntry(one, 'one')).hazards, [], 'and not journaled');
  const [on, plain] = [await listings(one, 'fresh'), await listings(off, 'fresh')];
  type Listed = { function: { name: string; parameters: { properties: Record<string, unknown>; required?: string[] } } };
  const declared = (on.openai as Listed[]).find((entry) => entry.function.name === 'get_product_details')!.function.parameters;
  t.ok('api_version' in declared.properties && declared.required?.includes('api_version'), 'the session listing declares the argument it requires');
  const others = (listed: Listed[]) => listed.filter((entry) => entry.function.name !== 'get_product_details');
  t.same(others(on.openai as Listed[]), others(plain.openai as Listed[]), 'and leaves every other tool as it is');

  const quiet = await one.newSession({ id: 'quiet', hazards: { kinds: { invocation_error: 'off' } } });
  t.equal(
    (await one.call('retail', 'get_product_details', { product_id: product.product_id }, quiet)).status,
    200,
    'a session with invocation_error off: no requirement',
  );
});

t.test('invocation_error: refused without the argument (nothing changes), accepted with it (once), the argument never reaches the tool', async (t) => {
  const off = await startServer(t);
  const server = await startServer(t, { hazardEnv: { HAZARDS: 'invocation', HAZARD_SEED: '1' } });
  const session = await server.newSession({ id: 'inv' });
  const before = await server.state(session);

  // checkout: 428 naming the key; the cart and the orders stay as they were.
  const refused = await server.call('retail', 'checkout', checkoutArgs, session);
  t.equal(refused.status, 428);
  t.match(refused.headers['content-type'], /application\/problem\+json/);
  t.match(refused.body, { status: 428, code: 'idempotency_key_required', detail: /"idempotency_key"/ }, 'the error names the argument');
  t.notOk('hint' in refused.body, 'no hint without hints mode');
  t.match(await lastEntry(server, session), {
    tool: 'checkout',
    call: 1,
    status: 428,
    changes: [],
    hazards: [
      {
        kind: 'invocation_error',
        family: 'invocation',
        tool: 'checkout',
        call: 1,
        requirement: 'idempotency_key',
        recovery: /repeat/,
        hint: /idempotency_key/,
        retryable: false,
      },
    ],
  });
  t.equal((await server.call('retail', 'checkout', { ...checkoutArgs, idempotency_key: 'short' }, session)).status, 428, 'a key under 8 characters is no key');
  t.same(await server.state(session), before, 'the refused calls changed nothing');

  const placed = await server.call('retail', 'checkout', { ...checkoutArgs, idempotency_key: KEY }, session);
  t.equal(placed.status, 200, 'with the key: the order is placed');
  t.same(placed.body, (await off.call('retail', 'checkout', checkoutArgs, 'plain')).body, 'the same order as a plain checkout without the hazard');
  const write = await lastEntry(server, session);
  t.same([write.hazards, write.args['idempotency_key']], [[], KEY], 'journaled with the arguments as sent, and no hazard');
  t.ok(write.changes.length > 0, 'the write is journaled');
  const after = (await server.state(session))['retail'];
  t.same(after.users[buyer.user_id].orders, [...before['retail'].users[buyer.user_id].orders, placed.body.order_id], 'exactly one new order');
  t.notOk(buyer.user_id in after.carts, 'the cart is emptied');
  t.notOk(JSON.stringify(after).includes(KEY), 'the key is no part of the data');
  const again = await server.call('retail', 'checkout', { ...checkoutArgs, idempotency_key: KEY }, session);
  t.same(
    [again.status, again.body, (await lastEntry(server, session)).changes],
    [200, placed.body, []],
    'a repeat with the key replays the order: no second one',
  );
  t.equal(
    (await server.journal<JournalEntry>(session)).filter((entry) => entry.tool === 'checkout' && entry.changes.length > 0).length,
    1,
    'one checkout write in all',
  );

  // cancel_pending_order: the order stays pending until the keyed call; refunded once.
  const noKey = await server.call('retail', 'cancel_pending_order', cancelArgs, session);
  t.match([noKey.status, noKey.body], [428, { code: 'idempotency_key_required' }]);
  t.equal((await server.state(session))['retail'].orders[pending.order_id].status, 'pending', 'still pending');
  const cancelled = await server.call('retail', 'cancel_pending_order', { ...cancelArgs, idempotency_key: `${KEY}-cancel` }, session);
  t.same(
    [cancelled.status, cancelled.body],
    [200, (await off.call('retail', 'cancel_pending_order', cancelArgs, 'plain')).body],
    'cancelled as without the hazard',
  );
  const refunds = (cancelled.body.payment_history as { transaction_type: string }[]).filter((p) => p.transaction_type === 'refund');
  t.equal(refunds.length, pending.payment_history.length, 'one refund per payment');

  // get_product_details: a 400 naming the version; a wrong one is refused; the right one answers.
  const bare = await server.call('retail', 'get_product_details', { product_id: product.product_id }, session);
  t.match([bare.status, bare.body], [400, { code: 'api_version_required', detail: /"api_version": "2024-05-01"/ }], 'names the argument and its value');
  t.match((await lastEntry(server, session)).hazards, [{ kind: 'invocation_error', requirement: 'api_version' }]);
  t.equal(
    (await server.call('retail', 'get_product_details', { product_id: product.product_id, api_version: '2023-01-01' }, session)).status,
    400,
    'another version is refused',
  );
  const versioned = await server.call('retail', 'get_product_details', { product_id: product.product_id, api_version: '2024-05-01' }, session);
  t.same(
    [versioned.status, versioned.body],
    [200, (await off.call('retail', 'get_product_details', { product_id: product.product_id })).body],
    'the product, as without the hazard',
  );
});

t.test('invocation_error: seeded per session, the same across restarts, independent of other sessions', async (t) => {
  await expectSeededSessionDraws(t, {
    ...DRAWS,
    otherSeed: '5',
    eachSession: (t, [refused, accepted], session) => t.equal(refused, accepted, `${session}: the argument is required exactly when it is accepted`),
    neighboursFirst: {
      sessions: ['noise-a', 'noise-b', 'noise-c'],
      script: {
        rounds: 1,
        round: () => [
          ['get_product_details', { product_id: product.product_id }],
          ['get_product_details', { product_id: product.product_id, api_version: '2024-05-01' }],
        ],
      },
    },
    messages: { split: 'need the argument and some not', restart: 'a restart with the same seed gives the same schedule' },
  });
});

t.test('invocation_error: hints mode keeps the schedule and only adds hints', async (t) => {
  const { plain, hinted, session } = await expectHintsKeepDraws(t, { ...DRAWS, message: 'the same sessions need the argument' });

  const [a, b] = [
    await plain.call('retail', 'get_product_details', { product_id: product.product_id }, session),
    await hinted.call('retail', 'get_product_details', { product_id: product.product_id }, session),
  ];
  t.same(b.body, { ...a.body, hint: 'Calls to this tool must include "api_version".' }, 'the error only gains the hint');
  t.same((await lastEntry(hinted, session)).hazards, (await lastEntry(plain, session)).hazards, 'the journal is the same');
  t.same(await listings(hinted, session), await listings(plain, session), 'listings are the same');

  const write = await hinted.call('retail', 'checkout', checkoutArgs, 'hinted-write');
  t.same([write.status, write.body.hint], [200, undefined], 'a tool the hazard is not on is untouched');
});
