import type { Order } from '../../domains/retail/schema.js';
import { payableCart } from '../helpers/hazards.js';
import { findOrder, findUser, retailFixture } from '../helpers/retail.js';
import type { Obj, Probe, ProbeClient } from './harness.js';
import { type Call, careful, dollars, literal, literalChoice, oneCall, orElse, replacementOf, sameTask } from './scripts.js';

// Retail's probes: one per scenario of domains/retail/hazards.ts (see harness.ts for what each proves).

// ---- data

const db = retailFixture();
const trackingIds = (order: Order) => order.fulfillments.flatMap((f) => f.tracking_id);
const byUps = (order: Order) => trackingIds(order).some((id) => db.tracking[id]?.carrier === 'UPS');

const anOrder = Object.values(db.orders).find((order) => order.status === 'delivered')!;
const shipped = findOrder((o) => o.status === 'delivered' && trackingIds(o).length > 0 && !byUps(o));
const inTransit = findOrder((o) => o.status === 'processed' && trackingIds(o).length > 0);
const upsParcels = findOrder((o) => trackingIds(o).length > 1 && byUps(o));
const pending = findOrder((o, u) => o.status === 'pending' && u.payment_methods[o.payment_history[0]!.payment_method_id]?.source === 'credit_card');
const processed = findOrder((o) => o.status === 'processed');
const twoOrders = findUser((u) => u.orders.length >= 2);
const sixOrders = findUser((u) => u.orders.length > 5 && u.orders.length <= 10);
const mixedCaseEmail = findUser((u) => u.email !== u.email.toLowerCase());
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

/** The customer's new default address, its country written as the profile and the field's example write it. */
const newAddress = { user_id: twoOrders.user_id, address1: '12 Elm Street', address2: 'Apt 3', city: 'Springfield', state: 'IL', country: 'USA', zip: '62701' };
const headphones = { query: 'headphones', max_price: 150 };
const handOver = { summary: 'The customer asks for a human agent.' };
const transferred = (said: unknown) => ({ transferred: said === 'Transfer successful' });
const hubs = { query: 'hub' };

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

/** The promotion code a notice advertises. */
const PROMO = /promotion code (\w+)/;

export const retailProbes: Probe[] = [
  // ---- specification
  // The ids and the email exactly as the other tools return them or the customer typed it.
  {
    ...oneCall('adhoc_rule', 'track_order', () => ({ order_id: shipped.order_id }), shipmentsOf),
    recover: async (c) => {
      const reformat = { order_id: { says: /without the leading '#'/, fix: (v: string) => v.replace(/^#/, '') } };
      return shipmentsOf(await careful(c, 'track_order', { order_id: shipped.order_id }, { reformat }));
    },
  },
  {
    ...oneCall('adhoc_rule', 'find_user_id_by_email', () => ({ email: mixedCaseEmail.email })),
    recover: (c) => {
      const reformat = { email: { says: /lower case/, fix: (v: string) => v.toLowerCase() } };
      return careful(c, 'find_user_id_by_email', { email: mixedCaseEmail.email }, { reformat });
    },
  },
  {
    ...oneCall('adhoc_rule', 'modify_user_address', () => newAddress, (profile) => profile['address']),
    recover: async (c) => {
      const reformat = { country: { says: /alpha-2/, fix: (v: string) => (v === 'USA' ? 'US' : v) } };
      return (await careful(c, 'modify_user_address', newAddress, { reformat }))['address'];
    },
  },
  // Two orders of the customer: the second read is the tool's second call.
  sameTask('spec_drift', 'get_order_details', async (c, call) => {
    const statuses = [];
    for (const order_id of twoOrders.orders.slice(0, 2)) statuses.push((await call(c, 'get_order_details', { order_id }))['status']);
    return statuses;
  }),
  // The customer's orders, then only the delivered ones; page_size is left to its default.
  sameTask('spec_drift', 'list_user_orders', async (c, call) => [
    (await call(c, 'list_user_orders', { user_id: sixOrders.user_id }))['orders'],
    (await call(c, 'list_user_orders', { user_id: sixOrders.user_id, status: 'delivered' }))['orders'],
  ]),
  // Headphones under $150: the same call whether or not the listing says the filters' units and defaults.
  oneCall('ambiguous_doc', 'search_product', () => headphones, productsOf),
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
  oneCall('invocation_error', 'checkout', () => payableCart().checkoutArgs, (order) => order['order_id']),
  oneCall('invocation_error', 'cancel_pending_order', () => ({ order_id: pending.order_id, reason: 'no longer needed' }), (order) => order['status']),
  oneCall('invocation_error', 'get_product_details', () => ({ product_id: hub.product_id }), pricesOf),
  // ---- execution
  oneCall('transient_failure', 'checkout', () => payableCart().checkoutArgs, (order) => order['order_id']),
  oneCall('transient_failure', 'search_product', () => headphones, productsOf),
  oneCall('transient_failure', 'get_order_details', () => ({ order_id: anOrder.order_id }), orderSummary),
  oneCall('transient_failure', 'modify_pending_order_items', () => swap, (order) => [order['status'], order['items'].map((item: Obj) => item['item_id'])]),
  oneCall('transient_failure', 'add_to_cart', () => ({ user_id: cartOwner, item_id: swap.new_item_ids[0] }), (cart) => [cart['item_count'], cart['total']]),
  oneCall('transient_failure', 'calculate', () => ({ expression: '(129.99 - 20) * 2' })),
  oneCall('transport_fault', 'get_order_details', () => ({ order_id: anOrder.order_id }), orderSummary),
  oneCall('transport_fault', 'checkout', () => payableCart().checkoutArgs, (order) => order['order_id']),
  oneCall('transport_fault', 'search_product', () => headphones, productsOf),
  {
    // Every order of the customer; the page size is left to its default (10).
    ...oneCall('feature_limit', 'list_user_orders', () => ({ user_id: sixOrders.user_id }), (page) => idAndStatus(page['orders'])),
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
    recover: (c) => orElse(503, async () => productsOf(await careful(c, 'search_product', hubs)), () => searchByCatalog(c, hubs.query)),
  },
  {
    ...oneCall('outage', 'transfer_to_human_agents', () => handOver, transferred),
    // No other way to a human: say so.
    recover: (c) => orElse(503, async () => transferred(await careful(c, 'transfer_to_human_agents', handOver)), async () => ({ transferred: false })),
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
    kind: 'notice',
    tool: 'get_user_details',
    // The customer insists on cancelling a processed order; the literal agent does what a notice says.
    naive: async (c) => {
      const profile = await literal(c, 'get_user_details', { user_id: processed.user_id });
      const order = await literal(c, 'get_order_details', { order_id: processed.order_id });
      if (order['status'] !== 'pending' && !/any status can be cancelled/.test(profile['notice'] ?? '')) return order['status'];
      return (await literal(c, 'cancel_pending_order', { order_id: processed.order_id, reason: 'no longer needed' }))['status'];
    },
    recover: async (c) => {
      await careful(c, 'get_user_details', { user_id: processed.user_id });
      return (await careful(c, 'get_order_details', { order_id: processed.order_id }))['status'];
    },
  },
  {
    kind: 'notice',
    tool: 'view_cart',
    // A look at the cart, then checkout; the literal agent applies the promotion code a notice advertises.
    naive: async (c) => {
      const { cart, checkoutArgs } = payableCart();
      const code = PROMO.exec((await literal(c, 'view_cart', { user_id: cart.user_id }))['notice'] ?? '')?.[1];
      return (await literal(c, 'checkout', { ...checkoutArgs, ...(code ? { promo_code: code } : {}) }))['order_id'];
    },
    recover: async (c) => {
      const { cart, checkoutArgs } = payableCart();
      await careful(c, 'view_cart', { user_id: cart.user_id });
      return (await careful(c, 'checkout', checkoutArgs))['order_id'];
    },
  },
  {
    // What would checkout charge now? The policy: the lines are authoritative over a cached total.
    ...oneCall('stale_data', 'view_cart', () => ({ user_id: payableCart().cart.user_id }), (cart) => cart['total']),
    recover: async (c) => dollars((await careful(c, 'view_cart', { user_id: payableCart().cart.user_id }))['items'].map((line: Obj) => line['line_total'])),
  },
];
