import t, { type Test } from 'tap';
import { expectSeededStatusDraws, startHintedPair, type JournalEntry } from '../helpers/hazards.js';
import { type Reply, startServer, type TestServer } from '../helpers/server.js';
import { findOrder, findUser, retailFixture } from '../helpers/retail.js';
import type { Order } from '../../domains/retail/schema.js';

const db = retailFixture();
const carrierOf = (id: string) => (db as unknown as { tracking: Record<string, { carrier: string }> }).tracking[id]?.carrier;
const trackingIds = (order: Order) => order.fulfillments.flatMap((f) => f.tracking_id);
const isUps = (order: Order) => trackingIds(order).some((id) => carrierOf(id) === 'UPS');
const upsOrders = Object.values(db.orders).filter(isUps);
const upsOrder = findOrder((o) => isUps(o) && trackingIds(o).length > 1);
const otherCarrierOrder = findOrder((o) => trackingIds(o).length > 0 && !isUps(o));
const busyUsers = Object.values(db.users).filter((u) => u.orders.length > 5);
const busy = findUser((u) => u.orders.length > 5);

const PAGE_REASON = 'Pages are limited to 5 orders on this plan; ask for 5 or fewer and use next_page_token to read further pages.';
const UPS_REASON = "Tracking by order id is not available for UPS shipments. Query each shipment by its tracking_id (listed in the order's fulfillments).";
const HINT = 'This is a limit of the service, not a bug: adjust the call as the message implies.';
const BOTH = { HAZARD__FEATURE_LIMIT__LIST_USER_ORDERS: 'on', HAZARD__FEATURE_LIMIT__TRACK_ORDER: 'on' };

t.test('the fixture has what these tests need', async (t) => {
  t.ok(busyUsers.length >= 3, `users with more than 5 orders (${busyUsers.length})`);
  t.ok(upsOrders.length >= 10, `orders shipped by UPS (${upsOrders.length})`);
  t.ok(trackingIds(upsOrder).length > 1, 'a UPS order with several packages');
});

t.test('fires only when enabled, and only on the calls the limit covers', async (t) => {
  const off = await startServer(t);
  const on = await startServer(t, { hazardEnv: BOTH });
  const onlyPages = await startServer(t, { hazardEnv: { HAZARD__FEATURE_LIMIT__LIST_USER_ORDERS: 'on' } });
  const cases: [string, Record<string, unknown>, number][] = [
    ['list_user_orders', { user_id: busy.user_id, page_size: 10 }, 422],
    ['list_user_orders', { user_id: busy.user_id, page_size: 6 }, 422],
    ['list_user_orders', { user_id: busy.user_id }, 422],
    ['list_user_orders', { user_id: busy.user_id, page_size: 5 }, 200],
    ['list_user_orders', { user_id: busy.user_id, page_size: 1 }, 200],
    ['track_order', { order_id: upsOrder.order_id }, 422],
    ['track_order', { order_id: upsOrder.order_id, tracking_id: trackingIds(upsOrder)[0] }, 200],
    ['track_order', { order_id: otherCarrierOrder.order_id }, 200],
    ['get_order_details', { order_id: upsOrder.order_id }, 200],
    ['get_user_details', { user_id: busy.user_id }, 200],
  ];
  for (const [tool, args, status] of cases) {
    const what = `${tool} ${JSON.stringify(args)}`;
    const plain = await off.call('retail', tool, args, 'f');
    t.equal(plain.status, 200, `off: ${what} answers`);
    const limited = await on.call('retail', tool, args, 'f');
    t.equal(limited.status, status, `on: ${what} → ${status}`);
    if (status === 200) t.same(limited.body, plain.body, 'a call the limit does not cover answers as without hazards');
    const single = await onlyPages.call('retail', tool, args, 'f');
    t.equal(single.status, tool === 'list_user_orders' ? status : 200, `only list_user_orders on: ${what} → ${single.status}`);
  }
  t.same(new Set((await on.journal<JournalEntry>('f')).flatMap((e) => e.hazards.map((h) => h.kind))), new Set(['feature_limit']), 'no other kind is injected');

  // Not a transient fault: retrying the same call never helps.
  const again: number[] = [];
  for (let i = 0; i < 6; i++) again.push((await on.call('retail', 'list_user_orders', { user_id: busy.user_id, page_size: 10 }, 'retry')).status);
  t.same(again, [422, 422, 422, 422, 422, 422], 'the same call fails every time, past max_consecutive');
});

t.test('the journal records kind, family, call, the scenario’s recovery, hint and reason', async (t) => {
  const server = await startServer(t, { hazardEnv: BOTH });
  await server.call('retail', 'list_user_orders', { user_id: busy.user_id, page_size: 5 }, 'j');
  await server.call('retail', 'list_user_orders', { user_id: busy.user_id, page_size: 20 }, 'j');
  await server.call('retail', 'track_order', { order_id: otherCarrierOrder.order_id }, 'j');
  await server.call('retail', 'track_order', { order_id: upsOrder.order_id }, 'j');
  const journal = await server.journal<JournalEntry>('j');
  t.same(
    journal.map((e) => [e.tool, e.call, e.status]),
    [
      ['list_user_orders', 1, 200],
      ['list_user_orders', 2, 422],
      ['track_order', 1, 200],
      ['track_order', 2, 422],
    ],
  );
  t.same(journal[0]!.hazards, [], 'a call within the limit carries no event');
  t.same(journal[2]!.hazards, []);
  t.same(journal[1]!.hazards, [
    {
      kind: 'feature_limit',
      family: 'execution',
      tool: 'list_user_orders',
      call: 2,
      recovery: 'ask for at most 5 orders per page and follow next_page_token',
      hint: HINT,
      retryable: false,
      reason: PAGE_REASON,
    },
  ]);
  t.same(journal[3]!.hazards, [
    {
      kind: 'feature_limit',
      family: 'execution',
      tool: 'track_order',
      call: 2,
      recovery: "read the tracking ids from get_order_details' fulfillments and call track_order with tracking_id",
      hint: HINT,
      retryable: false,
      reason: UPS_REASON,
    },
  ]);
  t.match(journal[3]!.problem, { status: 422, detail: UPS_REASON }, 'the journal has the problem the agent saw');
});

/** Every order of a user, read a page at a time by following next_page_token. */
async function readAllPages(t: Test, server: TestServer, user_id: string, session: string, page_size: number) {
  const orders: unknown[] = [];
  let token: string | null | undefined;
  let pages = 0;
  do {
    const reply: Reply<any> = await server.call('retail', 'list_user_orders', { user_id, page_size, ...(token ? { page_token: token } : {}) }, session);
    t.equal(reply.status, 200, `page ${pages + 1} of ${user_id}`);
    t.ok(reply.body.orders.length <= page_size, 'no more than page_size orders');
    orders.push(...reply.body.orders);
    token = reply.body.next_page_token;
    pages += 1;
  } while (token && pages < 20);
  return { orders, pages };
}

t.test('the workaround: pages of at most 5, following next_page_token, read every order', async (t) => {
  const off = await startServer(t);
  const server = await startServer(t, { hazardEnv: BOTH });
  for (const user of busyUsers) {
    const all = (await off.call('retail', 'list_user_orders', { user_id: user.user_id, page_size: 50 })).body;
    t.equal((await server.call('retail', 'list_user_orders', { user_id: user.user_id }, 'w')).status, 422, 'the default page size is refused');
    const { orders, pages } = await readAllPages(t, server, user.user_id, 'w', 5);
    t.same(orders, all.orders, `${user.user_id}: every order, in order, once`);
    t.equal(pages, Math.ceil(user.orders.length / 5), 'in as many pages as it takes');
  }
  t.same(
    new Set((await server.journal<JournalEntry>('w')).filter((e) => e.status === 200).flatMap((e) => e.hazards)),
    new Set(),
    'the workaround calls carry no hazard',
  );
});

t.test("the workaround: track each UPS package by the tracking_id in get_order_details' fulfillments", async (t) => {
  const off = await startServer(t);
  const server = await startServer(t, { hazardEnv: BOTH });
  for (const order of upsOrders) {
    t.equal((await server.call('retail', 'track_order', { order_id: order.order_id }, 'w')).status, 422, `${order.order_id}: by order id, refused`);
    const details = await server.call('retail', 'get_order_details', { order_id: order.order_id }, 'w');
    t.equal(details.status, 200, 'get_order_details answers');
    const ids = (details.body as Order).fulfillments.flatMap((f) => f.tracking_id);
    const shipments = [];
    for (const tracking_id of ids) {
      const one = await server.call('retail', 'track_order', { order_id: order.order_id, tracking_id }, 'w');
      t.equal(one.status, 200, `${order.order_id} ${tracking_id}: answers`);
      shipments.push(...one.body.shipments);
    }
    const whole = (await off.call('retail', 'track_order', { order_id: order.order_id })).body;
    t.same(shipments, whole.shipments, `${order.order_id}: every package, as tracking the whole order would show them`);
  }
});

t.test('the schedule: drawn once per session, fixed by seed and session id', async (t) => {
  await expectSeededStatusDraws(t, {
    env: { HAZARD__FEATURE_LIMIT__LIST_USER_ORDERS: '0.5', HAZARD_SEED: '13' },
    otherSeed: '14',
    count: 16,
    call: ['list_user_orders', { user_id: busy.user_id, page_size: 8 }],
    hitStatus: 422,
    afterEach: async (t, server, session) =>
      t.equal(
        (await server.call('retail', 'list_user_orders', { user_id: busy.user_id, page_size: 5 }, session)).status,
        200,
        'within the limit: always answers',
      ),
    whole: 'limited on every call or on none',
    messages: { split: 'are limited', reseeded: 'another seed limits other sessions' },
  });
});

t.test('hints mode: the same schedule, and only a hint member is added', async (t) => {
  const env = { HAZARD__FEATURE_LIMIT: '0.5', HAZARD_SEED: '3' };
  const { plain, hinted } = await startHintedPair(t, env);
  let limited = 0;
  for (let i = 0; i < 12; i++) {
    for (const [tool, args] of [
      ['list_user_orders', { user_id: busy.user_id, page_size: 7 }],
      ['track_order', { order_id: upsOrder.order_id }],
    ] as const) {
      const a = await plain.call('retail', tool, args, `h${i}`);
      const b = await hinted.call('retail', tool, args, `h${i}`);
      t.equal(b.status, a.status, `h${i} ${tool}: same status`);
      if (a.status === 422) {
        limited += 1;
        t.same(b.body, { ...a.body, hint: HINT }, 'the same problem, plus hint');
        t.notOk('hint' in a.body, 'no hint without hints mode');
      } else t.same(b.body, a.body, 'the same answer');
    }
    t.same(
      (await hinted.journal<JournalEntry>(`h${i}`)).map((e) => e.hazards),
      (await plain.journal<JournalEntry>(`h${i}`)).map((e) => e.hazards),
      'the same journal',
    );
  }
  t.ok(limited > 2 && limited < 22, `some limited calls (${limited} of 24)`);
});

t.test('realism: the API’s own problem JSON, a reason that names the workaround, no Retry-After', async (t) => {
  const server = await startServer(t, { hazardEnv: BOTH });
  for (const [tool, args, reason] of [
    ['list_user_orders', { user_id: busy.user_id, page_size: 25 }, PAGE_REASON],
    ['track_order', { order_id: upsOrder.order_id }, UPS_REASON],
  ] as const) {
    const reply = await server.call('retail', tool, args, 'r');
    t.equal(reply.status, 422);
    t.match(reply.headers['content-type'], /^application\/problem\+json/);
    t.same(reply.body, { type: '/problems/feature-limited', title: 'Unprocessable Content', status: 422, detail: reason, code: 'feature_limited' });
    t.equal(reply.headers['retry-after'], undefined, 'not a fault to wait out');
  }
  t.match(PAGE_REASON, /limited to 5 .*next_page_token/, 'the page limit names the size and the token, not a parameter name that drift may rename');
  t.match(UPS_REASON, /tracking_id .*fulfillments/, 'the UPS limit names the identifier and where to find it');
});
