import t from 'tap';
import { expectHintsOnly, expectSeededSchedule, type JournalEntry, type Obj, type Script } from '../helpers/hazards.js';
import { retailFixture } from '../helpers/retail.js';
import { startServer } from '../helpers/server.js';

// conflict on get_product_details: the catalog page lags the pricing service on one item's price;
// get_item_details, which the policy names authoritative, has the real one.

type Test = Parameters<typeof startServer>[0];

const fixture = retailFixture();
const products = Object.values(fixture.products).slice(0, 6);
const HINT = 'Another source reports this differently; the policy trusts get_item_details.';

const canonicalOf = async (t: Test) => {
  const off = await startServer(t);
  const answers: Obj[] = [];
  for (const product of products) answers.push((await off.call('retail', 'get_product_details', { product_id: product.product_id })).body);
  return { off, answers };
};

t.test('fires when enabled, and only then', async (t) => {
  const { off, answers } = await canonicalOf(t);
  for (const [i, answer] of answers.entries()) {
    for (const [id, variant] of Object.entries(answer['variants'] as Obj))
      t.equal(variant['price'], products[i]!.variants[id]!.price, 'hazards off: fixture prices');
    t.match(answer['catalog_updated_at'], /^\d{4}-\d\d-\d\dT/, 'hazards off: the page says when the catalog published it too');
  }

  const none = await startServer(t, { hazardEnv: { HAZARDS: 'failures,output_drift' } });
  for (const [i, product] of products.entries())
    t.same(
      (await none.call('retail', 'get_product_details', { product_id: product.product_id })).body,
      answers[i],
      'HAZARDS=failures,output_drift: no conflict',
    );

  for (const env of [{ HAZARD__CONFLICT__GET_PRODUCT_DETAILS: 'on' }, { HAZARDS: 'conflict' }, { HAZARDS: 'cross-source' }]) {
    const server = await startServer(t, { hazardEnv: env });
    const session = await server.newSession({ id: 'cf' });
    for (const [i, product] of products.entries()) {
      const body = (await server.call('retail', 'get_product_details', { product_id: product.product_id }, session)).body;
      const differing = Object.keys(body.variants).filter((id) => body.variants[id].price !== answers[i]!['variants'][id]['price']);
      t.equal(differing.length, 1, `${JSON.stringify(env)} ${product.name}: one item's price differs`);
    }
    const item = Object.values(products[0]!.variants)[0]!;
    t.same(
      (await server.call('retail', 'get_item_details', { item_id: item.item_id }, session)).body,
      (await off.call('retail', 'get_item_details', { item_id: item.item_id })).body,
      'get_item_details untouched',
    );
    const search = { query: products[0]!.name };
    t.same(
      (await server.call('retail', 'search_product', search, session)).body,
      (await off.call('retail', 'search_product', search)).body,
      'search_product untouched',
    );
  }
});

t.test('the journal records the field that disagrees, the value shown and the authority', async (t) => {
  const server = await startServer(t, { hazardEnv: { HAZARDS: 'conflict' } });
  const session = await server.newSession({ id: 'cf' });
  const bodies: Obj[] = [];
  for (const product of products) bodies.push((await server.call('retail', 'get_product_details', { product_id: product.product_id }, session)).body);
  const journal = await server.journal<JournalEntry>(session);
  for (const [i, entry] of journal.entries()) {
    t.equal(entry.hazards.length, 1);
    const event = entry.hazards[0]!;
    t.match(event, {
      kind: 'conflict',
      family: 'cross-source',
      tool: 'get_product_details',
      call: i + 1,
      recovery: /get_item_details/,
      hint: HINT,
      retryable: false,
      authority: 'get_item_details',
    });
    const [, id] = /^variants\.(\d+)\.price$/.exec(String(event['field'])) ?? [];
    t.ok(id && id in products[i]!.variants, `field ${event['field']} names an item of the product`);
    t.equal(event['shown'], bodies[i]!['variants'][id!]['price'], 'shown is the price the agent saw');
    t.not(event['shown'], products[i]!.variants[id!]!.price, 'and not the real one');
  }
});

t.test('recovery: get_item_details has the real price of the disagreeing item; every other item agrees', async (t) => {
  const { answers } = await canonicalOf(t);
  const server = await startServer(t, { hazardEnv: { HAZARDS: 'conflict', HAZARD_SEED: '11' } });
  for (const id of ['a', 'b', 'c']) {
    const session = await server.newSession({ id });
    for (const [i, product] of products.entries()) {
      const body = (await server.call('retail', 'get_product_details', { product_id: product.product_id }, session)).body as Obj;
      const event = (await server.journal<JournalEntry>(session)).at(-1)!.hazards[0]!;
      const lagging = /^variants\.(\d+)\.price$/.exec(String(event['field']))![1]!;
      for (const [itemId, variant] of Object.entries(body['variants'] as Obj)) {
        const authority = (await server.call('retail', 'get_item_details', { item_id: itemId }, session)).body as Obj;
        const real = product.variants[itemId]!.price;
        t.equal(authority['price'], real, `get_item_details ${itemId}: the fixture price`);
        if (itemId === lagging) {
          t.not(variant['price'], authority['price'], `${product.name} ${itemId}: the catalog shows ${variant['price']}, the pricing service ${real}`);
          const off = Math.abs(variant['price'] / real - 1);
          t.ok(off > 0.04 && off < 0.16, `off by ${(off * 100).toFixed(1)}%`);
          t.same({ ...variant, price: real }, authority, 'the rest of the item agrees');
        } else t.same(variant, authority, `${product.name} ${itemId}: agrees with get_item_details`);
      }
      const { catalog_updated_at, price_range, variants, ...rest } = body;
      t.match(catalog_updated_at, /^\d{4}-\d\d-\d\dT/, 'the catalog says when it was updated');
      t.ok(Date.parse(catalog_updated_at) < Date.parse(answers[i]!['catalog_updated_at']), 'an older publication than the current page');
      const shown = Object.values(variants as Record<string, Obj>).filter((v) => v['available']);
      if (shown.length > 0) {
        const prices = shown.map((v) => v['price'] as number);
        t.same(price_range, { min: Math.min(...prices), max: Math.max(...prices), currency: 'USD' }, "the page's range is its own items'");
      }
      const { variants: canonicalVariants, catalog_updated_at: _published, price_range: _range, ...canonicalRest } = answers[i]!;
      t.same(rest, canonicalRest, 'the rest of the product is canonical');
      t.same(Object.keys(variants), Object.keys(canonicalVariants), 'the same items, in the same order');
    }
  }
});

t.test('the lagging item is drawn once per session: every read in the session shows the same item at the same price', async (t) => {
  const server = await startServer(t, { hazardEnv: { HAZARDS: 'conflict', HAZARD_SEED: '11' } });
  const product = products[0]!;
  const lagging = new Set<string>();
  for (const id of ['a', 'b', 'c', 'd']) {
    const session = await server.newSession({ id });
    const reads: Obj[] = [];
    for (let i = 0; i < 3; i++) reads.push((await server.call('retail', 'get_product_details', { product_id: product.product_id }, session)).body);
    t.same(reads.slice(1), [reads[0], reads[0]], `${id}: a task asking twice gets the same answer`);
    const fields = (await server.journal<JournalEntry>(session)).map((entry) => String(entry.hazards[0]!['field']));
    t.same(new Set(fields).size, 1, `${id}: one lagging item, named in the journal (${fields[0]})`);
    lagging.add(fields[0]!);
  }
  t.ok(lagging.size > 1, 'other sessions lag on other items');
});

/** Twelve calls of get_product_details, going round the products. */
const SCRIPT: Script = { rounds: 12, round: (i) => [['get_product_details', { product_id: products[i % products.length]!.product_id }]] };
const SEEDED = { HAZARD__CONFLICT: '0.5', HAZARD_SEED: '1' };

t.test('the schedule is seeded: same seed, same schedule; another seed, another one; other sessions do not matter', async (t) => {
  await expectSeededSchedule(t, { env: SEEDED, script: SCRIPT, messages: { restartEvents: 'same seed across a restart: same hits, same lagging items' } });
});

t.test('hints mode: the same schedule, only `_hint` added', async (t) => {
  await expectHintsOnly(t, { env: SEEDED, script: SCRIPT, hint: HINT });
});
