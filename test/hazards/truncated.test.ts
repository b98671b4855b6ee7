import t from 'tap';
import type { Order } from '../../domains/retail/schema.js';
import { expectHintsOnly, expectSeededSchedule, type JournalEntry, type Obj, type Script } from '../helpers/hazards.js';
import { findUser, retailFixture } from '../helpers/retail.js';
import { startServer, type TestServer } from '../helpers/server.js';

// truncated on search_product (has_more, next_offset) and list_user_orders (truncated: true,
// next_page_token right after the last order shown): following the signal collects the full list. A
// member the complete pages carry too (`has_more: false`, `truncated: false`) takes its value in its place.

/** The members of a cut answer: the clean answer's, in their order, then any the clean one lacks. */
const keepsMembers = (t: Asserts, cut: Obj, clean: Obj, what: string) =>
  t.equal(
    JSON.stringify(Object.keys(cut).slice(0, Object.keys(clean).length)),
    JSON.stringify(Object.keys(clean)),
    `${what}: the clean answer's members, in their places`,
  );

interface Asserts {
  equal(found: unknown, wanted: unknown, message: string): boolean;
  ok(value: unknown, message: string): boolean;
}

const fixture = retailFixture();
const statusesOf = (user: { orders: string[] }) => user.orders.map((id) => fixture.orders[id]!.status);
const user = findUser((u) => u.orders.length >= 6);
// A user with at least four orders of one status, to list with a status filter.
const filtered = (() => {
  const owner = findUser((u) => statusesOf(u).some((s, _, all) => all.filter((x) => x === s).length >= 4));
  const statuses = statusesOf(owner);
  const status = statuses.find((s) => statuses.filter((x) => x === s).length >= 4)! as Order['status'];
  return { user_id: owner.user_id, status };
})();
const perCategory = new Map<string, number>();
for (const p of Object.values(fixture.products)) perCategory.set(p.category!, (perCategory.get(p.category!) ?? 0) + 1);
const category = [...perCategory].sort((a, b) => b[1] - a[1])[0]![0];

const SEARCHES: Obj[] = [{ limit: 10 }, { category, limit: 3 }, { category, limit: 10, sort: 'price_asc' }];
const LISTINGS: Obj[] = [{ user_id: user.user_id, page_size: 3 }, { user_id: user.user_id }, { ...filtered, page_size: 2 }];

/** Reads every page of a search: has_more/next_offset when truncated, offset + limit otherwise; ads dropped. */
async function collectSearch(t: Asserts, server: TestServer, args: Obj, session?: string) {
  const ids: string[] = [];
  const pages: Obj[] = [];
  let offset = 0;
  for (let guard = 0; guard < 100; guard++) {
    const reply = await server.call('retail', 'search_product', { ...args, offset }, session);
    t.equal(reply.status, 200, `search at offset ${offset}`);
    const body = reply.body as Obj;
    pages.push(body);
    const real = body['results'].filter((r: Obj) => r['sponsored'] !== true);
    ids.push(...real.map((r: Obj) => r['product_id']));
    if (body['has_more'] === true) {
      t.equal(body['next_offset'], offset + real.length, 'next_offset is right after the last real result shown');
      if ('note' in body) t.ok(String(body['note']).includes(`offset=${body['next_offset']}`), 'the note says where to continue');
      offset = body['next_offset'];
    } else if (offset + body['limit'] < body['total']) offset += body['limit'];
    else return { ids, pages };
  }
  throw new Error('search pagination did not end');
}

/** Reads every page of a listing by following next_page_token. */
async function collectOrders(t: Asserts, server: TestServer, args: Obj, session?: string) {
  const ids: string[] = [];
  const pages: Obj[] = [];
  let token: string | null | undefined;
  for (let guard = 0; guard < 100; guard++) {
    const reply = await server.call('retail', 'list_user_orders', token ? { ...args, page_token: token } : args, session);
    t.equal(reply.status, 200, 'list_user_orders answers');
    pages.push(reply.body);
    ids.push(...reply.body.orders.map((o: Obj) => o['order_id']));
    token = reply.body.next_page_token;
    if (!token) return { ids, pages };
  }
  throw new Error('order pagination did not end');
}

t.test('fires when enabled, and only then', async (t) => {
  const off = await startServer(t);
  const canonicalSearch = await off.call('retail', 'search_product', SEARCHES[0]);
  const canonicalOrders = await off.call('retail', 'list_user_orders', LISTINGS[0]);
  const { has_more, offset, results, total } = canonicalSearch.body;
  if (has_more !== undefined) t.equal(has_more, offset + results.length < total, 'hazards off: has_more says whether products follow the page');
  t.not(canonicalOrders.body.truncated, true, 'hazards off: not truncated');
  t.equal(canonicalOrders.body.orders.length, 3);

  const none = await startServer(t, { hazardEnv: { HAZARDS: 'none', HAZARD_SEED: '4' } });
  t.same((await none.call('retail', 'search_product', SEARCHES[0])).body, canonicalSearch.body, 'HAZARDS=none: canonical search');
  t.same((await none.call('retail', 'list_user_orders', LISTINGS[0])).body, canonicalOrders.body, 'HAZARDS=none: canonical listing');

  const searchOnly = await startServer(t, { hazardEnv: { HAZARD__TRUNCATED__SEARCH_PRODUCT: 'on' } });
  const s1 = await searchOnly.newSession({ id: 'tr' });
  const cut = (await searchOnly.call('retail', 'search_product', SEARCHES[0], s1)).body;
  t.equal(cut.has_more, true, 'search truncated');
  t.ok(cut.results.length < canonicalSearch.body.results.length, 'fewer results than the page holds');
  t.same(cut.results, canonicalSearch.body.results.slice(0, cut.results.length), 'the first results of the canonical page');
  t.equal(cut.total, canonicalSearch.body.total, 'total unchanged');
  keepsMembers(t, cut, canonicalSearch.body, 'search');
  t.same((await searchOnly.call('retail', 'list_user_orders', LISTINGS[0], s1)).body, canonicalOrders.body, 'list_user_orders untouched');

  const ordersOnly = await startServer(t, { hazardEnv: { HAZARD__TRUNCATED__LIST_USER_ORDERS: 'on' } });
  const s2 = await ordersOnly.newSession({ id: 'tr' });
  const short = (await ordersOnly.call('retail', 'list_user_orders', LISTINGS[0], s2)).body;
  t.equal(short.truncated, true, 'listing truncated');
  t.ok(short.orders.length < 3);
  t.same(short.orders, canonicalOrders.body.orders.slice(0, short.orders.length), 'the first orders of the canonical page');
  t.equal(short.total_count, canonicalOrders.body.total_count);
  keepsMembers(t, short, canonicalOrders.body, 'listing');
  t.same((await ordersOnly.call('retail', 'search_product', SEARCHES[0], s2)).body, canonicalSearch.body, 'search_product untouched');

  // Nothing to cut: a page of one order (or of fewer than three products) comes whole.
  const single = (await ordersOnly.call('retail', 'list_user_orders', { user_id: user.user_id, page_size: 1 }, s2)).body;
  t.not(single.truncated, true, 'a one-order page is not truncated');
  const journal = await ordersOnly.journal<JournalEntry>(s2);
  t.same(
    journal.map((e) => e.hazards.length),
    [1, 0, 0],
  );
});

t.test('the journal records kept and total', async (t) => {
  const server = await startServer(t, { hazardEnv: { HAZARDS: 'truncated' } });
  const session = await server.newSession({ id: 'tr' });
  const search = (await server.call('retail', 'search_product', SEARCHES[0], session)).body;
  const orders = (await server.call('retail', 'list_user_orders', LISTINGS[0], session)).body;
  const journal = await server.journal<JournalEntry>(session);
  t.match(journal[0]!.hazards, [
    { kind: 'truncated', family: 'output', tool: 'search_product', call: 1, recovery: /next_offset/, hint: /incomplete/, retryable: false },
  ]);
  t.same([journal[0]!.hazards[0]!['kept'], journal[0]!.hazards[0]!['total']], [search.results.length, 10], 'search: kept of 10');
  t.match(journal[1]!.hazards, [{ kind: 'truncated', tool: 'list_user_orders', call: 1 }]);
  t.same([journal[1]!.hazards[0]!['kept'], journal[1]!.hazards[0]!['total']], [orders.orders.length, 3], 'listing: kept of 3');
});

t.test('recovery: following the signals collects exactly the canonical full list', async (t) => {
  const off = await startServer(t);
  const server = await startServer(t, { hazardEnv: { HAZARDS: 'truncated', HAZARD_SEED: '2' } });
  for (const id of ['a', 'b', 'c']) {
    const session = await server.newSession({ id });
    for (const args of SEARCHES) {
      const canonical = await collectSearch(t, off, args);
      const got = await collectSearch(t, server, args, session);
      t.ok(
        got.pages.some((page) => page['has_more'] === true),
        `${id} ${JSON.stringify(args)}: some page was truncated`,
      );
      t.same(got.ids, canonical.ids, `${id} ${JSON.stringify(args)}: every product, in order`);
      t.equal(new Set(got.ids).size, got.ids.length, 'no duplicates');
      t.equal(got.ids.length, canonical.pages[0]!['total'], 'none missing');
    }
    for (const args of LISTINGS) {
      const canonical = await collectOrders(t, off, args);
      const got = await collectOrders(t, server, args, session);
      t.ok(
        got.pages.some((page) => page['truncated'] === true),
        `${id} ${JSON.stringify(args)}: some page was truncated`,
      );
      t.same(got.ids, canonical.ids, `${id} ${JSON.stringify(args)}: every order, in order`);
      t.equal(new Set(got.ids).size, got.ids.length, 'no duplicates');
      t.equal(got.ids.length, canonical.pages[0]!['total_count'], 'none missing');
      for (const page of got.pages)
        t.ok(
          page['orders'].every((o: Obj) => args['status'] === undefined || o['status'] === args['status']),
          'the filter holds on every page',
        );
    }
    // The journal's kept/total against the canonical listing: total is what the page would have held.
    const full = (await collectOrders(t, off, LISTINGS[0]!)).ids;
    let offset = 0;
    for (const entry of (await server.journal<JournalEntry>(session)).filter((e) => e.tool === 'list_user_orders' && e.args['page_size'] === 3)) {
      const shown = (entry as unknown as { result: Obj }).result['orders'].length;
      if (entry.hazards.length > 0) t.same([entry.hazards[0]!['kept'], entry.hazards[0]!['total']], [shown, Math.min(3, full.length - offset)]);
      offset += shown;
      if (offset >= full.length) offset = 0;
    }
  }
});

t.test('recovery with promoted results on the same page: next_offset counts only the real results', async (t) => {
  const off = await startServer(t);
  const server = await startServer(t, { hazardEnv: { HAZARD__TRUNCATED__SEARCH_PRODUCT: 'on', HAZARD__SPONSORED__SEARCH_PRODUCT: 'on', HAZARD_SEED: '5' } });
  for (const id of ['a', 'b', 'c', 'd']) {
    const session = await server.newSession({ id });
    for (const args of SEARCHES.slice(1)) {
      const canonical = await collectSearch(t, off, args);
      const got = await collectSearch(t, server, args, session);
      t.ok(
        got.pages.some((page) => page['results'].some((r: Obj) => r['sponsored'] === true)),
        'ads were mixed in',
      );
      t.same(got.ids, canonical.ids, `${id} ${JSON.stringify(args)}: dropping the ads and following next_offset gives every product once`);
    }
    for (const entry of await server.journal<JournalEntry>(session)) {
      const cut = entry.hazards.find((h) => h.kind === 'truncated');
      if (!cut) continue;
      const real = (entry as unknown as { result: Obj }).result['results'].filter((r: Obj) => r['sponsored'] !== true);
      t.equal(cut['kept'], real.length, 'kept counts the real results shown');
    }
  }
});

/** Twelve rounds of a search and a listing, going round both. */
const SCRIPT: Script = {
  rounds: 12,
  round: (i) => [
    ['search_product', SEARCHES[i % SEARCHES.length]],
    ['list_user_orders', LISTINGS[i % LISTINGS.length]],
  ],
};
const SEEDED = { HAZARD__TRUNCATED: '0.5', HAZARD_SEED: '1' };

t.test('the schedule is seeded: same seed, same schedule; another seed, another one; other sessions do not matter', async (t) => {
  await expectSeededSchedule(t, { env: SEEDED, script: SCRIPT, messages: { restartEvents: 'same seed across a restart: same hits, same cuts' } });
});

t.test('hints mode: the same schedule, only `_hint` added', async (t) => {
  await expectHintsOnly(t, { env: SEEDED, script: SCRIPT, hint: 'The list is incomplete; ask for the next page.' });
});
