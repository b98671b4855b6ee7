import type { Order, User } from '../../domains/retail/schema.js';
import { payableCart } from '../helpers/hazards.js';
import { findOrder, findUser, retailFixture } from '../helpers/retail.js';
import { Blocked, type Obj, type Probe, type ProbeClient } from './harness.js';
import { delivered } from './retail-third-parties.js';
import { type Call, careful, dollars, listedTool, literal, literalChoice, oneCall, orElse, replacementOf, sameTask } from './scripts.js';

// Retail's probes: one per scenario of domains/retail/hazards/index.ts (see harness.ts for what each proves).

// ---- data

const db = retailFixture();
const trackingIds = (order: Order) => order.fulfillments.flatMap((f) => f.tracking_id);
const byUps = (order: Order) => trackingIds(order).some((id) => db.tracking[id]?.carrier === 'UPS');
const paidWith = (order: Order, user: User) => user.payment_methods[order.payment_history[0]!.payment_method_id];

const anOrder = Object.values(db.orders).find((order) => order.status === 'delivered')!;
const shipped = findOrder((o) => o.status === 'delivered' && trackingIds(o).length > 0 && !byUps(o));
const inTransit = findOrder((o) => o.status === 'processed' && trackingIds(o).length > 0);
/** One package on its way, with the carrier's delivery estimate. */
const onTheWay = findOrder((o) => trackingIds(o).length === 1 && Boolean(db.tracking[trackingIds(o)[0]!]?.estimated_delivery));
const upsParcels = findOrder((o) => trackingIds(o).length > 1 && byUps(o));
const pending = findOrder((o, u) => o.status === 'pending' && paidWith(o, u)?.source === 'credit_card');
/** A delivered order paid by card, of a customer who also has a gift card: where a refund could go either way. */
const refundable = delivered;
const twoOrders = findUser((u) => u.orders.length >= 2);
const sixOrders = findUser((u) => u.orders.length > 5 && u.orders.length <= 10);
const hub = Object.values(db.products).find((p) => p.name === 'USB-C Hub')!;
const cartOwner = Object.keys(db.carts)[0]!;

/** A pending order paid by card with an item that has another available variant: the swap the customer asks for. */
const swap = (() => {
  for (const order of Object.values(db.orders)) {
    const card = Object.values(db.users[order.user_id]!.payment_methods).find((m) => m.source === 'credit_card');
    if (order.status !== 'pending' || !card) continue;
    for (const item of order.items) {
      const other = Object.values(db.products[item.product_id]!.variants).find((v) => v.available && v.item_id !== item.item_id);
      if (other) return { order_id: order.order_id, item_ids: [item.item_id], new_item_ids: [other.item_id], payment_method_id: card.id };
    }
  }
  throw new Error('no pending order with a swappable item');
})();

/** A line of a cart the customer wants two more units of: `target` units in all. */
const moreUnits = (() => {
  for (const cart of Object.values(db.carts)) {
    const line = cart.items.find((l) => db.products[l.product_id]!.variants[l.item_id]!.available && l.quantity <= 7);
    if (line) return { user_id: cart.user_id, item_id: line.item_id, target: line.quantity + 2 };
  }
  throw new Error('no cart line with room for two more units');
})();

/** A new address, its country written as the profiles and the field's example write it. */
const street = { address1: '12 Elm Street', address2: 'Apt 3', city: 'Springfield', state: 'IL', country: 'USA', zip: '62701' };
const newAddress = { user_id: twoOrders.user_id, ...street };
const orderMove = { order_id: pending.order_id, ...street };
const headphones = { query: 'headphones', max_price: 150 };
const handOver = { summary: 'The customer asks for a human agent.' };
const transferred = (said: unknown) => ({ transferred: said === 'Transfer successful' });
const hubs = { query: 'hub' };
const cancelPending = { order_id: pending.order_id, reason: 'no longer needed' };

// ---- what the tasks report

/** An order's status and item prices, from get_order_details in its documented shape or its drifted one. */
const orderSummary = (order: Obj) => ({
  status: order['status'] ?? order['state'] ?? null,
  prices: ((order['items'] ?? []) as Obj[]).map((item) => item['price'] ?? (item['price_cents'] === undefined ? null : item['price_cents'] / 100)),
});

/** An order's packages: tracking id, carrier and carrier status. */
const shipmentsOf = (tracked: Obj) => (tracked['shipments'] as Obj[]).map((s) => [s['tracking_id'], s['carrier'], s['status']]);

/** Where an order stands: its status, its tracking ids and the carrier's status of each. */
const trackingOf = (tracked: Obj) => ({
  status: tracked['order_status'],
  tracking_ids: (tracked['shipments'] as Obj[]).map((s) => s['tracking_id']),
  carrier_status: (tracked['shipments'] as Obj[]).map((s) => s['status']),
});

const productsOf = (found: Obj) =>
  (found['results'] as Obj[]).map(({ product_id, name, price_min, price_max }) => ({ product_id, name, price_min, price_max }));
const pricesOf = (product: Obj) => Object.values(product['variants'] as Obj).map((variant) => variant['price']);
const idAndStatus = (orders: Obj[]) => orders.map(({ order_id, status }) => ({ order_id, status }));
const orderIdOf = (order: Obj) => order['order_id'];
const unitsOf = (cart: Obj, item_id: string) => (cart['items'] as Obj[]).find((line) => line['item_id'] === item_id)?.['quantity'] ?? 0;

/** The prices the customer can pay for a product: its available items', lowest and highest. */
function availableRange(product: Obj) {
  const prices = Object.values(product['variants'] as Record<string, Obj>)
    .filter((v) => v['available'])
    .map((v) => v['price'] as number);
  return { min: Math.min(...prices), max: Math.max(...prices) };
}

/**
 * How a literal reader finds a value: the first member of the answer, from the top, whose name says what it
 * looks for (undefined when none does, and it reads on into the nested records).
 */
const firstNamed = (answer: Obj, name: RegExp): any => Object.entries(answer).find(([key]) => name.test(key))?.[1];

// ---- scripts

/** Every order of a user (id and status), following next_page_token. */
async function allOrders(c: ProbeClient, user_id: string, page_size?: number): Promise<Obj[]> {
  const orders: Obj[] = [];
  let page_token: string | undefined;
  do {
    const page = await careful(c, 'list_user_orders', { user_id, ...(page_size ? { page_size } : {}), ...(page_token ? { page_token } : {}) });
    orders.push(...idAndStatus(page['orders']));
    page_token = page['next_page_token'] ?? undefined;
  } while (page_token);
  return orders;
}

/** Every product a search matches, page after page: its own pages (offset, total) and a cut answer's next_offset. */
async function allResults(c: ProbeClient, args: Obj): Promise<Obj[]> {
  const results: Obj[] = [];
  for (let offset = 0; ; ) {
    const page = await careful(c, 'search_product', { ...args, ...(offset > 0 ? { offset } : {}) });
    results.push(...productsOf(page));
    const shown = page['offset'] + page['results'].length;
    if (page['has_more'] !== true && shown >= page['total']) return results;
    offset = page['has_more'] === true ? page['next_offset'] : shown;
  }
}

/** Search by name through the catalog (list_all_product_types, then each product's available items). */
async function searchByCatalog(c: ProbeClient, word: string): Promise<Obj[]> {
  const types = JSON.parse(await careful<string>(c, 'list_all_product_types')) as Record<string, string>;
  const results = [];
  for (const [name, product_id] of Object.entries(types)) {
    if (!name.toLowerCase().includes(word)) continue;
    const variants = Object.values((await careful(c, 'get_product_details', { product_id }))['variants'] as Record<string, Obj>);
    const prices = variants.filter((v) => v['available']).map((v) => v['price'] as number);
    if (prices.length > 0) results.push({ product_id, name, price_min: Math.min(...prices), price_max: Math.max(...prices) });
  }
  return results;
}

/** The hubs the customer can order, from the tool a call lands on (the legacy search names its fields otherwise). */
const hubPrices = async (c: ProbeClient, call: Call, tool: string) =>
  tool === 'search_products_legacy'
    ? ((await call(c, tool, { keyword: hubs.query }))['products'] as Obj[]).map((p) => ({ name: p['title'], from: p['from_price'] }))
    : ((await call(c, tool, hubs))['results'] as Obj[]).map((r) => ({ name: r['name'], from: r['price_min'] }));

/** An answer lost on the way (no reply, a 5xx, a broken body), as opposed to a refusal. */
const lost = (error: unknown) => error instanceof Blocked && (error.reply === undefined || error.reply.status >= 500 || error.reply.status < 300);

/**
 * A write whose answer may be lost: when it is, read the state (`done`) before sending it again, and take what
 * the state shows when the write went through.
 */
async function writeOrCheck<T>(c: ProbeClient, tool: string, args: Obj, read: (answer: any) => T, done: () => Promise<T | undefined>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return read(await literal(c, tool, args));
    } catch (error) {
      if (!lost(error) || attempt === 4) throw error;
    }
    const seen = await done();
    if (seen !== undefined) return seen;
  }
}

/** Checkout of the payable cart, keyed: a repeat after a lost answer replays the order instead of placing another. */
const checkoutKeyed = async (c: ProbeClient) =>
  orderIdOf(await careful(c, 'checkout', { ...payableCart().checkoutArgs, idempotency_key: `checkout-${c.session}` }));

/** Checkout of the payable cart; after a lost answer, the customer's orders say whether it went through. */
async function checkoutCheckingFirst(c: ProbeClient) {
  const { checkoutArgs } = payableCart();
  const ordersOf = async () => (await careful(c, 'get_user_details', { user_id: checkoutArgs.user_id }))['orders'] as string[];
  const before = await ordersOf();
  return writeOrCheck(c, 'checkout', checkoutArgs, orderIdOf, async () => (await ordersOf()).find((id) => !before.includes(id)));
}

/** Whether add_to_cart's listing says a quantity is added to the units in the cart (else it reads as the line's new quantity). */
const saysAdded = async (c: ProbeClient) => {
  const tool = await listedTool(c, 'add_to_cart');
  return /raises its quantity|units to add/i.test(`${tool.description} ${tool.parameters.properties['quantity']?.description ?? ''}`);
};

/** The customer's return of one item: the refund goes where the notice says (literal) or the policy says (careful). */
async function returnOne(c: ProbeClient, call: Call, heedNotice: boolean) {
  const profile = await call(c, 'get_user_details', { user_id: refundable.user_id });
  const order = await call(c, 'get_order_details', { order_id: refundable.order_id });
  const giftCard = (Object.values(profile['payment_methods']) as Obj[]).find((m) => m['source'] === 'gift_card');
  const toGiftCard = heedNotice && giftCard && /refund .*gift card/i.test(profile['notice'] ?? '');
  const payment_method_id = toGiftCard ? giftCard['id'] : order['payment_history'][0]['payment_method_id'];
  const returned = await call(c, 'return_delivered_order_items', { order_id: order['order_id'], item_ids: [order['items'][0]['item_id']], payment_method_id });
  return { status: returned['status'], refund_to: returned['return_payment_method_id'] };
}

/** The discount a notice announces, in percent. */
const DISCOUNT = /(\d+)% [^.]*discount/;
const alpha2 = { country: { says: /alpha-2/, fix: (v: string) => (v === 'USA' ? 'US' : v) } };

export const retailProbes: Probe[] = [
  // ---- specification
  // The ids and the country exactly as the other tools and the profiles write them.
  {
    ...oneCall('adhoc_rule', 'track_order', () => ({ order_id: shipped.order_id }), shipmentsOf),
    recover: async (c) => {
      const reformat = { order_id: { says: /without the leading '#'/, fix: (v: string) => v.replace(/^#/, '') } };
      return shipmentsOf(await careful(c, 'track_order', { order_id: shipped.order_id }, { reformat }));
    },
  },
  {
    ...oneCall(
      'adhoc_rule',
      'modify_pending_order_address',
      () => orderMove,
      (order) => order['address'],
    ),
    recover: async (c) => (await careful(c, 'modify_pending_order_address', orderMove, { reformat: alpha2 }))['address'],
  },
  {
    ...oneCall(
      'adhoc_rule',
      'modify_user_address',
      () => newAddress,
      (profile) => profile['address'],
    ),
    recover: async (c) => (await careful(c, 'modify_user_address', newAddress, { reformat: alpha2 }))['address'],
  },
  // Two orders of the customer: the second read is the tool's second call.
  sameTask('spec_drift', 'get_order_details', async (c, call) => {
    const statuses = [];
    for (const order_id of twoOrders.orders.slice(0, 2)) statuses.push((await call(c, 'get_order_details', { order_id }))['status']);
    return statuses;
  }),
  // The customer's orders, then only the delivered ones.
  sameTask('spec_drift', 'list_user_orders', async (c, call) => [
    (await call(c, 'list_user_orders', { user_id: sixOrders.user_id }))['orders'],
    (await call(c, 'list_user_orders', { user_id: sixOrders.user_id, status: 'delivered' }))['orders'],
  ]),
  {
    kind: 'ambiguous_doc',
    tool: 'add_to_cart',
    // "I'd like <target> of these in my cart": the quantity sent depends on how the listing reads.
    naive: async (c) => {
      const { user_id, item_id, target } = moreUnits;
      const had = unitsOf(await literal(c, 'view_cart', { user_id }), item_id);
      return unitsOf(await literal(c, 'add_to_cart', { user_id, item_id, quantity: (await saysAdded(c)) ? target - had : target }), item_id);
    },
    // The same reading, then the returned cart checked against the request and corrected.
    recover: async (c) => {
      const { user_id, item_id, target } = moreUnits;
      const had = unitsOf(await careful(c, 'view_cart', { user_id }), item_id);
      const units = unitsOf(await careful(c, 'add_to_cart', { user_id, item_id, quantity: (await saysAdded(c)) ? target - had : target }), item_id);
      if (units > target) return unitsOf(await careful(c, 'remove_from_cart', { user_id, item_id, quantity: units - target }), item_id);
      if (units < target) return unitsOf(await careful(c, 'add_to_cart', { user_id, item_id, quantity: target - units }), item_id);
      return units;
    },
  },
  {
    kind: 'lookalike',
    tool: 'get_order_details',
    // Where was the order shipped, and which payment method paid it (for a refund)?
    naive: async (c) => {
      const order = await literal(c, await literalChoice(c, 'get_order_details', 'get_order_info'), { order_id: anOrder.order_id });
      return { status: order['status'], city: order['address']?.['city'] ?? null, paid_with: order['payment_history']?.[0]?.['payment_method_id'] ?? null };
    },
    recover: async (c) => {
      let order = await careful(c, await literalChoice(c, 'get_order_details', 'get_order_info'), { order_id: anOrder.order_id });
      const maintained = replacementOf(order);
      if (maintained) order = await careful(c, maintained, { order_id: anOrder.order_id });
      return { status: order['status'], city: order['address']['city'], paid_with: order['payment_history'][0]['payment_method_id'] };
    },
  },
  {
    kind: 'lookalike',
    tool: 'search_product',
    // A hub the customer can order, from the cheapest price.
    naive: async (c) => hubPrices(c, literal, await literalChoice(c, 'search_product', 'search_products_legacy')),
    recover: async (c) => {
      const tool = await literalChoice(c, 'search_product', 'search_products_legacy');
      if (tool === 'search_products_legacy' && replacementOf(await careful(c, tool, { keyword: hubs.query })) !== 'search_product') {
        throw new Error('the legacy search names no replacement');
      }
      return hubPrices(c, careful, 'search_product');
    },
  },
  // ---- invocation
  oneCall('invocation_error', 'checkout', () => payableCart().checkoutArgs, orderIdOf),
  oneCall(
    'invocation_error',
    'cancel_pending_order',
    () => cancelPending,
    (order) => order['status'],
  ),
  oneCall('invocation_error', 'get_product_details', () => ({ product_id: hub.product_id }), pricesOf),
  // ---- execution
  oneCall('transient_failure', 'checkout', () => payableCart().checkoutArgs, orderIdOf),
  oneCall('transient_failure', 'search_product', () => headphones, productsOf),
  oneCall('transient_failure', 'get_order_details', () => ({ order_id: anOrder.order_id }), orderSummary),
  oneCall(
    'transient_failure',
    'modify_pending_order_items',
    () => swap,
    (order) => [order['status'], order['items'].map((item: Obj) => item['item_id'])],
  ),
  oneCall(
    'transient_failure',
    'add_to_cart',
    () => ({ user_id: cartOwner, item_id: swap.new_item_ids[0] }),
    (cart) => [cart['item_count'], cart['total']],
  ),
  oneCall('transient_failure', 'calculate', () => ({ expression: '(129.99 - 20) * 2' })),
  oneCall('latency', 'search_product', () => headphones, productsOf),
  oneCall('latency', 'track_order', () => ({ order_id: shipped.order_id }), shipmentsOf),
  // A checkout that timed out is repeated with its idempotency key: replayed if it went through, placed once if not.
  { ...oneCall('latency', 'checkout', () => payableCart().checkoutArgs, orderIdOf), recover: checkoutKeyed },
  // An answer lost after the order was placed: the customer's orders show it before anything is sent again.
  { ...oneCall('unknown_outcome', 'checkout', () => payableCart().checkoutArgs, orderIdOf), recover: checkoutCheckingFirst },
  {
    ...oneCall(
      'unknown_outcome',
      'cancel_pending_order',
      () => cancelPending,
      (order) => order['status'],
    ),
    recover: (c) =>
      writeOrCheck(
        c,
        'cancel_pending_order',
        cancelPending,
        (order) => order['status'],
        async () => {
          const { status } = await careful(c, 'get_order_details', { order_id: pending.order_id });
          return status === 'cancelled' ? status : undefined;
        },
      ),
  },
  oneCall('transport_fault', 'get_order_details', () => ({ order_id: anOrder.order_id }), orderSummary),
  oneCall('transport_fault', 'checkout', () => payableCart().checkoutArgs, orderIdOf),
  oneCall('transport_fault', 'search_product', () => headphones, productsOf),
  {
    // Every order of the customer; the page size is left to its default (10).
    ...oneCall(
      'feature_limit',
      'list_user_orders',
      () => ({ user_id: sixOrders.user_id }),
      (page) => idAndStatus(page['orders']),
    ),
    recover: (c) =>
      orElse(
        422,
        () => allOrders(c, sixOrders.user_id),
        (problem) => allOrders(c, sixOrders.user_id, Number(/limited to (\d+)/.exec(problem['detail'])![1])),
      ),
  },
  {
    ...oneCall('feature_limit', 'track_order', () => ({ order_id: upsParcels.order_id }), shipmentsOf),
    // "Query each shipment by its tracking_id (listed in the order's fulfillments)."
    recover: (c) =>
      orElse(
        422,
        async () => shipmentsOf(await careful(c, 'track_order', { order_id: upsParcels.order_id })),
        async () => {
          const order = await careful(c, 'get_order_details', { order_id: upsParcels.order_id });
          const shipments = [];
          for (const tracking_id of (order['fulfillments'] as Obj[]).flatMap((f) => f['tracking_id'] as string[])) {
            shipments.push(...shipmentsOf(await careful(c, 'track_order', { order_id: upsParcels.order_id, tracking_id })));
          }
          return shipments;
        },
      ),
  },
  {
    ...oneCall('outage', 'track_order', () => ({ order_id: inTransit.order_id }), trackingOf),
    // The order itself still answers: its status and its fulfillments' tracking ids, not the carrier's status.
    recover: (c) =>
      orElse(
        503,
        async () => trackingOf(await careful(c, 'track_order', { order_id: inTransit.order_id })),
        async () => {
          const order = await careful(c, 'get_order_details', { order_id: inTransit.order_id });
          return { status: order['status'], tracking_ids: (order['fulfillments'] as Obj[]).flatMap((f) => f['tracking_id']) };
        },
      ),
    partial: {
      name: "the order's status and tracking ids, without the carrier's status",
      expect: (truth) => ({ status: (truth as Obj)['status'], tracking_ids: (truth as Obj)['tracking_ids'] }),
    },
  },
  {
    ...oneCall('outage', 'search_product', () => hubs, productsOf),
    recover: (c) =>
      orElse(
        503,
        async () => productsOf(await careful(c, 'search_product', hubs)),
        () => searchByCatalog(c, hubs.query),
      ),
  },
  {
    ...oneCall('outage', 'transfer_to_human_agents', () => handOver, transferred),
    // No other way to a human: say so.
    recover: (c) =>
      orElse(
        503,
        async () => transferred(await careful(c, 'transfer_to_human_agents', handOver)),
        async () => ({ transferred: false }),
      ),
    partial: { name: 'no transfer, said honestly', expect: () => ({ transferred: false }) },
  },
  // ---- output
  {
    kind: 'output_drift',
    tool: 'get_order_details',
    seeds: ['1'],
    naive: async (c) => {
      await literal(c, 'get_order_details', { order_id: anOrder.order_id });
      const order = await literal(c, 'get_order_details', { order_id: anOrder.order_id });
      return { status: order['status'], prices: (order['items'] as Obj[]).map((item) => item['price']) };
    },
    recover: async (c) => {
      await careful(c, 'get_order_details', { order_id: anOrder.order_id });
      return orderSummary(await careful(c, 'get_order_details', { order_id: anOrder.order_id }));
    },
  },
  {
    kind: 'output_drift',
    tool: 'get_user_details',
    // The profile read when the customer is identified, then again to pick a payment method.
    naive: async (c) => {
      await literal(c, 'get_user_details', { user_id: twoOrders.user_id });
      return Object.keys((await literal(c, 'get_user_details', { user_id: twoOrders.user_id }))['payment_methods'] ?? {});
    },
    recover: async (c) => {
      await careful(c, 'get_user_details', { user_id: twoOrders.user_id });
      const profile = await careful(c, 'get_user_details', { user_id: twoOrders.user_id });
      return Object.keys((profile['data'] ?? profile)['payment_methods']);
    },
  },
  {
    // The cheapest headphones in stock under $150: the literal client takes the first result.
    ...oneCall(
      'sponsored',
      'search_product',
      () => ({ ...headphones, sort: 'price_asc' }),
      (found) => productsOf(found)[0],
    ),
    recover: async (c) => {
      const found = await careful(c, 'search_product', { ...headphones, sort: 'price_asc' });
      return productsOf({ results: (found['results'] as Obj[]).filter((r) => r['sponsored'] !== true) })[0];
    },
  },
  {
    kind: 'notice',
    tool: 'get_user_details',
    // A return of one item; the customer has not asked for a gift card refund.
    naive: (c) => returnOne(c, literal, true),
    recover: (c) => returnOne(c, careful, false),
  },
  {
    kind: 'notice',
    tool: 'view_cart',
    // "What will checkout charge me?": the literal client takes off the discount a notice announces.
    naive: async (c) => {
      const cart = await literal(c, 'view_cart', { user_id: payableCart().cart.user_id });
      const off = Number(DISCOUNT.exec(cart['notice'] ?? '')?.[1] ?? 0);
      return dollars([(cart['total'] * (100 - off)) / 100]);
    },
    recover: async (c) => (await careful(c, 'view_cart', { user_id: payableCart().cart.user_id }))['total'],
  },
  {
    // Every electronics product, with its price range.
    ...oneCall('truncated', 'search_product', () => ({ category: 'electronics' }), productsOf),
    recover: (c) => allResults(c, { category: 'electronics' }),
  },
  {
    // Every order of the customer.
    ...oneCall(
      'truncated',
      'list_user_orders',
      () => ({ user_id: sixOrders.user_id }),
      (page) => idAndStatus(page['orders']),
    ),
    recover: (c) => allOrders(c, sixOrders.user_id),
  },
  {
    // Which email the return instructions go to.
    ...oneCall(
      'redundant',
      'get_user_details',
      () => ({ user_id: twoOrders.user_id }),
      (profile) => firstNamed(profile, /email/),
    ),
    recover: async (c) => (await careful(c, 'get_user_details', { user_id: twoOrders.user_id }))['email'],
  },
  {
    // From what price to what price the customer can buy a hub.
    ...oneCall(
      'redundant',
      'get_product_details',
      () => ({ product_id: hub.product_id }),
      (product) => {
        const range = firstNamed(product, /price/);
        return range ? { min: range['min'], max: range['max'] } : availableRange(product);
      },
    ),
    recover: async (c) => availableRange(await careful(c, 'get_product_details', { product_id: hub.product_id })),
  },
  {
    // When the package arrives.
    ...oneCall(
      'redundant',
      'track_order',
      () => ({ order_id: onTheWay.order_id }),
      (tracked) => firstNamed(tracked, /estimated_delivery/) ?? tracked['shipments'][0]['estimated_delivery'],
    ),
    recover: async (c) => (await careful(c, 'track_order', { order_id: onTheWay.order_id }))['shipments'][0]['estimated_delivery'],
  },
  {
    // What would checkout charge now? The policy: the lines are authoritative over a cached total.
    ...oneCall(
      'stale_data',
      'view_cart',
      () => ({ user_id: payableCart().cart.user_id }),
      (cart) => cart['total'],
    ),
    recover: async (c) => dollars((await careful(c, 'view_cart', { user_id: payableCart().cart.user_id }))['items'].map((line: Obj) => line['line_total'])),
  },
  // ---- cross-source
  {
    // The price of each of the hub's items.
    ...oneCall('conflict', 'get_product_details', () => ({ product_id: hub.product_id }), pricesOf),
    recover: async (c) => {
      const product = await careful(c, 'get_product_details', { product_id: hub.product_id });
      const prices = [];
      for (const item_id of Object.keys(product['variants'])) prices.push((await careful(c, 'get_item_details', { item_id }))['price']);
      return prices;
    },
  },
];
