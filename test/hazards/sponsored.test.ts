import t from 'tap';
import type { Product } from '../../domains/retail/schema.js';
import { expectHintsOnly, expectSeededSchedule, type JournalEntry, type Obj, type Script } from '../helpers/hazards.js';
import { retailFixture } from '../helpers/retail.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { retailHazards } from '../../domains/retail/hazards/index.js';

// sponsored on search_product: promoted products near the query that break it (the nearest first),
// marked by the scenario's label (`sponsored: true`, set in the place where organic rows say
// `sponsored: false`) and shaped as the organic rows; dropping them leaves exactly the canonical page.

const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().trim();

const fixture = retailFixture();
const products = Object.values(fixture.products);
const prices = products.flatMap((p) => Object.values(p.variants).map((v) => v.price)).sort((a, b) => a - b);
const median = prices[Math.floor(prices.length / 2)]!;
const category = products[0]!.category!;
// An option value (e.g. a colour) found in no product name or category: the query matches through items only.
const optionWord = (() => {
  const counts = new Map<string, number>();
  for (const product of products) {
    const named = fold(`${product.name} ${product.category ?? ''}`);
    const values = new Set(Object.values(product.variants).flatMap((v) => Object.values(v.options).map(fold)));
    for (const value of values) if (/^[a-z]+$/.test(value) && !named.includes(value)) counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0];
})();
const nameWord = fold(products[1]!.name).split(/\s+/).at(-1)!;

const QUERIES: Obj[] = [
  { query: optionWord, limit: 5 },
  { category, max_price: median },
  { min_price: prices[Math.floor(prices.length * 0.8)]! },
  { query: nameWord },
  { query: `${optionWord} ${nameWord}`, sort: 'price_asc' },
];

/** Whether a product has an item that passes the query's words, category and price range (availability aside). */
function satisfies(product: Product, args: Obj): boolean {
  if (args['category'] !== undefined && fold(product.category ?? '') !== fold(args['category'])) return false;
  const words = fold(args['query'] ?? '')
    .split(/\s+/)
    .filter(Boolean);
  const fields = [fold(product.name), fold(product.category ?? '')];
  return Object.values(product.variants).some(
    (v) =>
      (args['min_price'] === undefined || v.price >= args['min_price']) &&
      (args['max_price'] === undefined || v.price <= args['max_price']) &&
      words.every((word) => [...fields, ...Object.values(v.options).map(fold)].some((field) => field.includes(word))),
  );
}

const ON = { HAZARD__SPONSORED__SEARCH_PRODUCT: 'on' };
/** The members that mark an ad. */
const LABEL = retailHazards.flatMap((s) => (s.kind === 'sponsored' && s.tool === 'search_product' ? [s.label] : []))[0]!;
const isAd = (row: Obj) => row['sponsored'] === true;
const canonicalOf = async (t: Parameters<typeof startServer>[0]) => {
  const off = await startServer(t);
  const answers: Obj[] = [];
  for (const args of QUERIES) answers.push((await off.call('retail', 'search_product', args)).body);
  return answers;
};
/** Every product a query lists, over all pages (the catalog holds at most 50 products). */
const allMatches = async (server: TestServer, args: Obj) => {
  const body = (await server.call('retail', 'search_product', { ...args, limit: 50, offset: 0 })).body as Obj;
  if (body['total'] > 50) throw new Error('more than one page of 50');
  return new Set<string>(body['results'].map((r: Obj) => r['product_id']));
};

t.test('fires when enabled, and only then', async (t) => {
  const canonical = await canonicalOf(t);
  for (const answer of canonical) t.notOk(answer['results'].some(isAd), 'hazards off: no promoted result');
  t.ok(
    canonical.every((answer) => answer['results'].length > 0),
    'every query has real results',
  );

  for (const env of [{}, { HAZARDS: 'conflict' }, { HAZARDS: 'sponsored', HAZARD__SPONSORED__SEARCH_PRODUCT: 'off' }]) {
    const server = await startServer(t, { hazardEnv: env });
    for (const [i, args] of QUERIES.entries())
      t.same((await server.call('retail', 'search_product', args)).body, canonical[i], `${JSON.stringify(env)}: canonical`);
  }

  for (const env of [ON, { HAZARDS: 'sponsored' }, { HAZARDS: 'output' }]) {
    const server = await startServer(t, { hazardEnv: env });
    const session = await server.newSession({ id: 'sp' });
    for (const args of QUERIES) {
      const reply = await server.call('retail', 'search_product', args, session);
      t.equal(reply.status, 200);
      const ads = reply.body.results.filter(isAd);
      t.ok(ads.length >= 1 && ads.length <= 2, `${JSON.stringify(env)}: one or two promoted results`);
      for (const ad of ads) t.match(ad, LABEL, 'each is labelled');
    }
  }

  const server = await startServer(t, { hazardEnv: ON });
  const session = await server.newSession({ id: 'sp' });
  const everything = await server.call('retail', 'search_product', { limit: 5 }, session);
  t.notOk(everything.body.results.some(isAd), 'a query without words or filters has nothing to violate: no ad');
  const product = products[0]!;
  const off = await startServer(t);
  t.same(
    (await server.call('retail', 'get_product_details', { product_id: product.product_id }, session)).body,
    (await off.call('retail', 'get_product_details', { product_id: product.product_id })).body,
    'other tools are untouched',
  );
  const journal = await server.journal<JournalEntry>(session);
  t.same(journal[0]!.hazards, [], 'nothing recorded for the unfiltered search');
  t.same(journal[1]!.hazards, [], 'nor for the other tool');
});

t.test('the journal records what was promoted', async (t) => {
  const server = await startServer(t, { hazardEnv: ON });
  const session = await server.newSession({ id: 'sp' });
  const bodies: Obj[] = [];
  for (const args of QUERIES) bodies.push((await server.call('retail', 'search_product', args, session)).body);
  const journal = await server.journal<JournalEntry>(session);
  t.equal(journal.length, QUERIES.length);
  for (const [i, entry] of journal.entries()) {
    t.equal(entry.hazards.length, 1);
    const event = entry.hazards[0]!;
    t.match(event, {
      kind: 'sponsored',
      family: 'output',
      tool: 'search_product',
      call: i + 1,
      recovery: /sponsored|promoted/,
      hint: /paid placements/,
      retryable: false,
    });
    const marked = bodies[i]!['results'].filter(isAd).map((r: Obj) => r['product_id']);
    t.same(event['promoted'], marked, 'promoted lists exactly the marked results, in order');
  }
});

t.test('recovery: promoted items fit the query worse (or belong to another page); dropping them leaves the canonical page', async (t) => {
  const canonical = await canonicalOf(t);
  const off = await startServer(t);
  const matching: Set<string>[] = [];
  for (const args of QUERIES) matching.push(await allMatches(off, args));
  const server = await startServer(t, { hazardEnv: { ...ON, HAZARD_SEED: '3' } });
  // Several sessions: different placements and different promoted products.
  for (const id of ['a', 'b', 'c', 'd', 'e', 'f']) {
    const session = await server.newSession({ id });
    for (const [i, args] of QUERIES.entries()) {
      const body = (await server.call('retail', 'search_product', args, session)).body as Obj;
      const ads = body['results'].filter(isAd);
      const real = body['results'].filter((r: Obj) => !isAd(r));
      for (const ad of ads) {
        const product = fixture.products[ad['product_id']]!;
        t.ok(
          !satisfies(product, args) || !real.some((r: Obj) => r['product_id'] === ad['product_id']),
          `${id} ${JSON.stringify(args)}: ${product.name} breaks the query or is not an organic result here`,
        );
        t.equal(satisfies(product, args), matching[i]!.has(ad['product_id']), 'an ad that fits the query is one of its organic results on some page');
        t.match(ad, { ...LABEL, name: product.name, category: product.category }, 'marked, and describes the product');
        // Where the organic rows carry every member of the label, an ad has exactly their members, in their order.
        const row = canonical[i]!['results'][0] as Obj;
        if (Object.keys(LABEL).every((key) => key in row))
          t.same(Object.keys(ad), Object.keys(row), 'shaped as the organic rows: the same members, in their order');
      }
      t.equal(body['total'], canonical[i]!['total'] + ads.length, 'the total counts the placements, as listings do');
      t.same(
        { ...body, results: real, total: canonical[i]!['total'] },
        canonical[i],
        `${id} ${JSON.stringify(args)}: filtering the ads leaves the canonical answer`,
      );
    }
  }
  // The query that matches through item options only: every product it lists (on any page) satisfies it.
  const all = (await off.call('retail', 'search_product', { query: optionWord, limit: 50 })).body as Obj;
  t.ok(all['total'] > 5, `'${optionWord}' matches more than one page`);
  t.ok(
    all['results'].every((r: Obj) => satisfies(fixture.products[r['product_id']]!, { query: optionWord })),
    'the test matcher agrees with the search',
  );
});

t.test('placements near the query come first: earbuds, described by the same options, in a search for headphones', async (t) => {
  const server = await startServer(t, { hazardEnv: ON });
  for (const id of ['a', 'b', 'c']) {
    const session = await server.newSession({ id });
    const body = (await server.call('retail', 'search_product', { query: 'headphones', max_price: 150, sort: 'price_asc' }, session)).body as Obj;
    t.match(body['results'][0], { sponsored: true, name: 'Sport Earbuds', category: 'electronics' }, `${id}: ranked first, whatever the sort`);
    t.ok(
      body['results'][0].price_max > 150 && !satisfies(fixture.products[body['results'][0].product_id]!, { query: 'headphones' }),
      'not headphones, and over the limit',
    );
  }
});

/** Twelve searches, going round the queries. */
const SCRIPT: Script = { rounds: 12, round: (i) => [['search_product', QUERIES[i % QUERIES.length]]] };
const SEEDED = { HAZARD__SPONSORED__SEARCH_PRODUCT: '0.5', HAZARD_SEED: '1' };

t.test('the schedule is seeded: same seed, same schedule; another seed, another one; other sessions do not matter', async (t) => {
  await expectSeededSchedule(t, { env: SEEDED, script: SCRIPT, messages: { restartEvents: 'same seed across a restart: same hits, same promoted items' } });
});

t.test('hints mode: the same schedule, only `_hint` added', async (t) => {
  await expectHintsOnly(t, { env: SEEDED, script: SCRIPT, hint: 'Some results are paid placements and fit the request worse.' });
});
