import t, { type Test } from 'tap';
import { categoryOf } from '../../../domains/retail/derive.js';
import { roundHalfEven } from '../../../lib/money.js';
import { serveFiles, stateHash, tau2Tables } from '../../helpers/tau2.js';

// A small database in tau2-bench's exact retail format (no optional fields, none of our tables or
// categories), served as a user's file. Gold-style calls replayed on it must leave tau2-bench's end
// state, computed here by tau2-bench's rules: explicit nulls, raw floats, Python's order of operations.

type Db = { products: Record<string, any>; users: Record<string, any>; orders: Record<string, any> };

const address = { address1: '12 Elm Street', address2: 'Apt 4', city: 'Austin', country: 'USA', state: 'TX', zip: '78701' };
const variant = (item_id: string, options: Record<string, string>, price: number, available = true) => ({ item_id, options, available, price });
const LAMP = '1000000001';
const MAT = '1000000002';
const products = {
  [LAMP]: {
    name: 'Desk Lamp',
    product_id: LAMP,
    variants: {
      '2000000011': variant('2000000011', { color: 'black' }, 100.0),
      '2000000012': variant('2000000012', { color: 'white' }, 100.05),
      '2000000013': variant('2000000013', { color: 'brass' }, 297.39),
      '2000000014': variant('2000000014', { color: 'silver' }, 258.36),
      '2000000015': variant('2000000015', { color: 'red' }, 89.99, false),
    },
  },
  [MAT]: {
    name: 'Yoga Mat',
    product_id: MAT,
    variants: {
      '2000000021': variant('2000000021', { thickness: '4mm', color: 'green' }, 57.3),
      '2000000022': variant('2000000022', { thickness: '6mm', color: 'purple' }, 204.67),
      '2000000023': variant('2000000023', { thickness: '8mm', color: 'grey' }, 61.33),
    },
  },
};
const line = (product_id: string, item_id: string) => {
  const { name, variants } = products[product_id as keyof typeof products] as { name: string; variants: Record<string, ReturnType<typeof variant>> };
  const { price, options } = variants[item_id]!;
  return { name, product_id, item_id, price, options };
};
const order = (order_id: string, user_id: string, status: string, items: ReturnType<typeof line>[], payment_method_id: string, delivered = false) => ({
  order_id,
  user_id,
  address,
  items,
  status,
  fulfillments: delivered ? [{ tracking_id: [`${order_id.slice(2)}01`], item_ids: items.map((i) => i.item_id) }] : [],
  payment_history: [{ transaction_type: 'payment', amount: items.reduce((sum, i) => sum + i.price, 0), payment_method_id }],
});

/** The file, as tau2-bench writes it. */
const tau2File = () =>
  structuredClone({
    products,
    users: {
      ada_lovelace_1815: {
        user_id: 'ada_lovelace_1815',
        name: { first_name: 'Ada', last_name: 'Lovelace' },
        address,
        email: 'ada.lovelace1815@example.com',
        payment_methods: {
          gift_card_1000001: { source: 'gift_card', id: 'gift_card_1000001', balance: 154.0 },
          credit_card_1000002: { source: 'credit_card', id: 'credit_card_1000002', brand: 'visa', last_four: '4242' },
          paypal_1000003: { source: 'paypal', id: 'paypal_1000003' },
        },
        orders: ['#W1000001', '#W1000002', '#W1000003'],
      },
      alan_turing_1912: {
        user_id: 'alan_turing_1912',
        name: { first_name: 'Alan', last_name: 'Turing' },
        address,
        email: 'alan.turing1912@example.com',
        payment_methods: {
          gift_card_2000001: { source: 'gift_card', id: 'gift_card_2000001', balance: 48.5 },
          credit_card_2000002: { source: 'credit_card', id: 'credit_card_2000002', brand: 'mastercard', last_four: '0007' },
        },
        orders: ['#W1000004', '#W1000005', '#W1000006'],
      },
    },
    orders: {
      '#W1000001': order('#W1000001', 'ada_lovelace_1815', 'pending', [line(LAMP, '2000000011')], 'gift_card_1000001'),
      '#W1000002': order('#W1000002', 'ada_lovelace_1815', 'pending', [line(LAMP, '2000000013'), line(MAT, '2000000021')], 'credit_card_1000002'),
      '#W1000003': order('#W1000003', 'ada_lovelace_1815', 'pending', [line(MAT, '2000000023')], 'paypal_1000003'),
      '#W1000004': order('#W1000004', 'alan_turing_1912', 'pending', [line(MAT, '2000000021')], 'gift_card_2000001'),
      '#W1000005': order('#W1000005', 'alan_turing_1912', 'delivered', [line(LAMP, '2000000013'), line(MAT, '2000000023')], 'credit_card_2000002', true),
      '#W1000006': order('#W1000006', 'alan_turing_1912', 'delivered', [line(MAT, '2000000021'), line(LAMP, '2000000011')], 'credit_card_2000002', true),
    },
  });

/** The gold-style calls replayed, in order. */
const calls: [string, Record<string, unknown>][] = [
  ['modify_pending_order_items', { order_id: '#W1000001', item_ids: ['2000000011'], new_item_ids: ['2000000012'], payment_method_id: 'gift_card_1000001' }],
  [
    'modify_pending_order_items',
    { order_id: '#W1000002', item_ids: ['2000000013', '2000000021'], new_item_ids: ['2000000014', '2000000022'], payment_method_id: 'credit_card_1000002' },
  ],
  ['modify_pending_order_payment', { order_id: '#W1000003', payment_method_id: 'gift_card_1000001' }],
  ['cancel_pending_order', { order_id: '#W1000004', reason: 'ordered by mistake' }],
  [
    'exchange_delivered_order_items',
    { order_id: '#W1000005', item_ids: ['2000000023', '2000000013'], new_item_ids: ['2000000022', '2000000014'], payment_method_id: 'credit_card_2000002' },
  ],
  ['return_delivered_order_items', { order_id: '#W1000006', item_ids: ['2000000011', '2000000021'], payment_method_id: 'gift_card_2000001' }],
];

// ---- tau2-bench's rules (src/tau2/domains/retail), as its Python code runs them

/** What tau2-bench's pydantic models hold once they read the file: every optional order field null. */
function tau2Loaded(file: Db): Db {
  const db = structuredClone(file);
  for (const o of Object.values(db.orders)) {
    for (const field of [
      'cancel_reason',
      'exchange_items',
      'exchange_new_items',
      'exchange_payment_method_id',
      'exchange_price_difference',
      'return_items',
      'return_payment_method_id',
    ]) {
      o[field] ??= null;
    }
  }
  return db;
}

const methodOf = (db: Db, o: any, id: string) => db.users[o.user_id].payment_methods[id];
const round2 = (x: number) => roundHalfEven(x, 2); // Python's round(x, 2)
const firstWith = (o: any, itemId: string) => o.items.find((item: any) => item.item_id === itemId);
const variantIn = (db: Db, productId: string, itemId: string) => db.products[productId].variants[itemId];

/** diff_price = 0; for each pair: diff_price += new_price - old_price (the first line holding the old id). */
function diffPrice(db: Db, o: any, itemIds: string[], newItemIds: string[]): number {
  let diff = 0;
  itemIds.forEach((itemId, i) => {
    const item = firstWith(o, itemId);
    diff += variantIn(db, item.product_id, newItemIds[i]!).price - item.price;
  });
  return diff;
}

const tau2: Record<string, (db: Db, args: any) => void> = {
  modify_pending_order_items(db, { order_id, item_ids, new_item_ids, payment_method_id }) {
    const o = db.orders[order_id];
    const diff = diffPrice(db, o, item_ids, new_item_ids);
    o.payment_history.push({ transaction_type: diff > 0 ? 'payment' : 'refund', amount: Math.abs(diff), payment_method_id });
    const method = methodOf(db, o, payment_method_id);
    if (method.source === 'gift_card') method.balance = round2(method.balance - diff);
    // The loop leaves `variant` at the last pair's: every item gets its price and options (issues #317, #318).
    const last = variantIn(db, firstWith(o, item_ids.at(-1)).product_id, new_item_ids.at(-1));
    item_ids.forEach((itemId: string, i: number) => {
      const item = firstWith(o, itemId);
      item.item_id = new_item_ids[i];
      item.price = last.price;
      item.options = last.options;
    });
    o.status = 'pending (item modified)';
  },
  modify_pending_order_payment(db, { order_id, payment_method_id }) {
    const o = db.orders[order_id];
    const { amount, payment_method_id: old } = o.payment_history[0];
    o.payment_history.push({ transaction_type: 'payment', amount, payment_method_id }, { transaction_type: 'refund', amount, payment_method_id: old });
    const next = methodOf(db, o, payment_method_id);
    if (next.source === 'gift_card') next.balance = round2(next.balance - amount);
    const before = methodOf(db, o, old);
    if (before.source === 'gift_card') before.balance = round2(before.balance + amount);
  },
  cancel_pending_order(db, { order_id, reason }) {
    const o = db.orders[order_id];
    const refunds = o.payment_history.map((p: any) => {
      const method = methodOf(db, o, p.payment_method_id);
      if (method.source === 'gift_card') method.balance = round2(method.balance + p.amount);
      return { transaction_type: 'refund', amount: p.amount, payment_method_id: p.payment_method_id };
    });
    o.status = 'cancelled';
    o.cancel_reason = reason;
    o.payment_history.push(...refunds);
  },
  exchange_delivered_order_items(db, { order_id, item_ids, new_item_ids, payment_method_id }) {
    const o = db.orders[order_id];
    o.status = 'exchange requested';
    o.exchange_items = [...item_ids].sort();
    o.exchange_new_items = [...new_item_ids].sort();
    o.exchange_payment_method_id = payment_method_id;
    o.exchange_price_difference = round2(diffPrice(db, o, item_ids, new_item_ids));
  },
  return_delivered_order_items(db, { order_id, item_ids, payment_method_id }) {
    const o = db.orders[order_id];
    o.status = 'return requested';
    o.return_items = [...item_ids].sort();
    o.return_payment_method_id = payment_method_id;
  },
};

function tau2EndState(): Db {
  const db = tau2Loaded(tau2File());
  for (const [tool, args] of calls) tau2[tool]!(db, args);
  return db;
}

const TABLES = ['products', 'users', 'orders'];

/** The calls replayed in a new session of a server on the file; tau2-bench's tables afterwards. */
async function replay(t: Test, env: NodeJS.ProcessEnv): Promise<Db> {
  const server = await serveFiles(t, { retail: tau2File() }, env);
  const session = await server.newSession();
  for (const [tool, args] of calls) {
    const reply = await server.call('retail', tool, args, session);
    t.equal(reply.status, 200, `${tool} ${JSON.stringify(args)}: ${reply.text.slice(0, 200)}`);
  }
  return tau2Tables((await server.state(session)).retail, TABLES) as unknown as Db;
}

t.test('loading: the optional order fields are null, products are kept as tau2-bench has them', async (t) => {
  const server = await serveFiles(t, { retail: tau2File() });
  const state = (await server.state()).retail;
  t.strictSame(tau2Tables(state, TABLES), tau2Loaded(tau2File()), "the loaded tables are tau2-bench's model_dump()");
  t.equal(state.orders['#W1000001'].cancel_reason, null);
  t.strictSame(Object.keys(state.products[LAMP]), ['name', 'product_id', 'variants'], 'no category added');
  const details = await server.call('retail', 'get_product_details', { product_id: LAMP });
  const { price_range: _range, catalog_updated_at: _published, ...product } = details.body;
  t.strictSame(product, products[LAMP], "get_product_details answers tau2-bench's product, with the page's price range and time");
  const search = await server.call('retail', 'search_product', { query: 'lamp' });
  t.equal(search.body.results[0]?.category, categoryOf('Desk Lamp'), 'search still knows a category, derived from the name');
});

t.test("TAU2_COMPAT=strict: the replayed calls leave tau2-bench's end state exactly", async (t) => {
  const state = await replay(t, { TAU2_COMPAT: 'strict' });
  const expected = tau2EndState();
  t.strictSame(state, expected);
  t.equal(stateHash(state), stateHash(expected), 'the same hash of the sorted JSON');

  // The floats tau2-bench stores, as Python prints them.
  t.equal(state.orders['#W1000001'].payment_history[1].amount, 0.04999999999999716, '100.05 - 100.0, unrounded');
  t.equal(state.users.ada_lovelace_1815.payment_methods.gift_card_1000001.balance, 92.62, 'round(round(154.0 - diff, 2) - 61.33, 2)');
  t.equal(
    state.orders['#W1000002'].payment_history[1].amount,
    108.34000000000003,
    '0 + (258.36 - 297.39) + (204.67 - 57.3): not (258.36 + 204.67) - (297.39 + 57.3) = 108.33999999999997',
  );
  t.equal(state.orders['#W1000005'].exchange_price_difference, 104.31, 'round(0 + (204.67 - 61.33) + (258.36 - 297.39), 2)');
  t.equal(state.users.alan_turing_1912.payment_methods.gift_card_2000001.balance, 105.8, 'round(48.5 + 57.3, 2)');
  t.strictSame(
    state.orders['#W1000002'].items.map((i: any) => [i.item_id, i.price, i.options]),
    [
      ['2000000014', 204.67, { thickness: '6mm', color: 'purple' }],
      ['2000000022', 204.67, { thickness: '6mm', color: 'purple' }],
    ],
    "tau2-bench's bug: both items get the last new variant's price and options",
  );
});

t.test('TAU2_COMPAT=off (default): the same end state, but each modified item keeps its own price and options', async (t) => {
  const state = await replay(t, {});
  const expected = tau2EndState();
  t.not(stateHash(state), stateHash(expected), 'differs from tau2-bench…');
  t.strictSame(
    state.orders['#W1000002'].items.map((i: any) => [i.item_id, i.price, i.options]),
    [
      ['2000000014', 258.36, { color: 'silver' }],
      ['2000000022', 204.67, { thickness: '6mm', color: 'purple' }],
    ],
  );
  expected.orders['#W1000002'].items = state.orders['#W1000002'].items;
  t.strictSame(state, expected, '…only there');
});
