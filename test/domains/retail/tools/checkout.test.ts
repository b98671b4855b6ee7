import t from 'tap';
import { expectRejections, startServer } from '../../../helpers/server.js';
import { findUser, giftCardsOf, retailFixture } from '../../../helpers/retail.js';
import { baseFromFile } from '../../../../server/core/data/base.js';
import { retail } from '../../../../domains/retail/index.js';
import type { Address, Cart } from '../../../../domains/retail/schema.js';

const db = retailFixture();
const cartTotal = (cart: Cart) => Math.round(cart.items.reduce((sum, l) => sum + l.unit_price * l.quantity, 0) * 100) / 100;
const round = (amount: number) => Math.round(amount * 100) / 100;
const ORDER_KEYS = [
  'order_id',
  'user_id',
  'address',
  'items',
  'status',
  'fulfillments',
  'payment_history',
  'cancel_reason',
  'exchange_items',
  'exchange_new_items',
  'exchange_payment_method_id',
  'exchange_price_difference',
  'return_items',
  'return_payment_method_id',
];

/** The order checkout makes of a cart, without its id. */
function expectedOrder(cart: Cart, payment_method_id: string, address: Address, price = (_itemId: string, stored: number) => stored) {
  const items = cart.items.flatMap((line) =>
    Array.from({ length: line.quantity }, () => ({
      name: line.name,
      product_id: line.product_id,
      item_id: line.item_id,
      price: price(line.item_id, line.unit_price),
      options: line.options,
    })),
  );
  const amount = round(items.reduce((sum, item) => sum + item.price, 0));
  return {
    user_id: cart.user_id,
    address,
    items,
    status: 'pending',
    fulfillments: [],
    payment_history: [{ transaction_type: 'payment', amount, payment_method_id }],
    cancel_reason: null,
    exchange_items: null,
    exchange_new_items: null,
    exchange_payment_method_id: null,
    exchange_price_difference: null,
    return_items: null,
    return_payment_method_id: null,
  };
}

t.test('checkout', async (t) => {
  const server = await startServer(t);
  const carts = Object.values(db.carts);
  // A cart with a line of several units, whose owner has a gift card that covers it.
  const paid = carts.find((c) => c.items.some((l) => l.quantity > 1) && giftCardsOf(db.users[c.user_id]!).some((g) => g.balance >= cartTotal(c)))!;
  const owner = db.users[paid.user_id]!;
  const giftCard = giftCardsOf(owner).find((g) => g.balance >= cartTotal(paid))!;

  t.test('turns the cart into a pending order paid by gift card', async (t) => {
    const session = await server.newSession();
    const reply = await server.call('retail', 'checkout', { user_id: owner.user_id, payment_method_id: giftCard.id }, session);
    t.equal(reply.status, 200);
    const order = reply.body;
    t.match(order.order_id, /^#W[1-9]\d{6}$/);
    t.notOk(order.order_id in db.orders, 'a new id');
    t.same(order, { order_id: order.order_id, ...expectedOrder(paid, giftCard.id, owner.address) });
    t.same(Object.keys(order), ORDER_KEYS, 'tau2 key order');
    t.equal(
      order.items.length,
      paid.items.reduce((n, l) => n + l.quantity, 0),
      'one item per unit',
    );

    const after = (await server.state(session)).retail;
    t.same(after.orders[order.order_id], order);
    t.same(after.users[owner.user_id].orders, [...owner.orders, order.order_id]);
    t.equal(after.users[owner.user_id].payment_methods[giftCard.id].balance, round(giftCard.balance - cartTotal(paid)));
    t.notOk(owner.user_id in after.carts, 'the cart is gone');
    const diff = (await server.request('GET', `/sessions/${session}/diff`)).body.retail;
    t.same(diff.map((d: { table: string; id: string; op: string }) => [d.table, d.id, d.op]).sort(), [
      ['carts', owner.user_id, 'delete'],
      ['orders', order.order_id, 'insert'],
      ['users', owner.user_id, 'update'],
    ]);

    const again = await server.call('retail', 'checkout', { user_id: owner.user_id, payment_method_id: giftCard.id }, await server.newSession());
    t.equal(again.body.order_id, order.order_id, 'the id is deterministic');
    const empty = await server.call('retail', 'checkout', { user_id: owner.user_id, payment_method_id: giftCard.id }, session);
    t.equal(empty.status, 409, 'the cart was emptied');
  });

  t.test('another payment method and another address', async (t) => {
    const session = await server.newSession();
    const cart = carts.find((c) => Object.values(db.users[c.user_id]!.payment_methods).some((m) => m.source !== 'gift_card'))!;
    const user = db.users[cart.user_id]!;
    const card = Object.values(user.payment_methods).find((m) => m.source !== 'gift_card')!;
    const address = { address1: '1 Test Street', address2: '', city: 'Testville', state: 'TX', country: 'USA', zip: '75001' };
    const reply = await server.call('retail', 'checkout', { user_id: user.user_id, payment_method_id: card.id, address }, session);
    t.equal(reply.status, 200);
    const { address1, address2, city, country, state, zip } = address;
    t.same(reply.body, { order_id: reply.body.order_id, ...expectedOrder(cart, card.id, { address1, address2, city, country, state, zip }) });
    t.same(Object.keys(reply.body.address), ['address1', 'address2', 'city', 'country', 'state', 'zip']);
    const after = (await server.state(session)).retail.users[user.user_id];
    t.same(after.payment_methods, user.payment_methods, 'no balance changes');
    t.same(after.address, user.address, 'the default address stays');
  });

  t.test('the new order behaves like any pending order', async (t) => {
    const session = await server.newSession();
    const order = (await server.call('retail', 'checkout', { user_id: owner.user_id, payment_method_id: giftCard.id }, session)).body;

    const details = await server.call('retail', 'get_order_details', { order_id: order.order_id }, session);
    t.same(details.body, order);
    const listed = await server.call('retail', 'list_user_orders', { user_id: owner.user_id, page_size: 50 }, session);
    t.same(listed.body.orders.at(-1), { order_id: order.order_id, status: 'pending', item_count: order.items.length, total: cartTotal(paid) });
    const tracked = await server.call('retail', 'track_order', { order_id: order.order_id }, session);
    t.same(tracked.body.shipments, []);

    const cancelled = await server.call('retail', 'cancel_pending_order', { order_id: order.order_id, reason: 'ordered by mistake' }, session);
    t.equal(cancelled.status, 200);
    t.equal(cancelled.body.status, 'cancelled');
    t.same(cancelled.body.payment_history, [
      { transaction_type: 'payment', amount: cartTotal(paid), payment_method_id: giftCard.id },
      { transaction_type: 'refund', amount: cartTotal(paid), payment_method_id: giftCard.id },
    ]);
    const after = (await server.state(session)).retail;
    t.equal(after.users[owner.user_id].payment_methods[giftCard.id].balance, giftCard.balance, 'the gift card is refunded in full');
    t.equal(after.orders[order.order_id].status, 'cancelled');
  });

  t.test('current prices, and items that are no longer available', async (t) => {
    const changed = structuredClone(db);
    const line = paid.items[0]!;
    const newPrice = round(line.unit_price + 1.11);
    changed.products[line.product_id]!.variants[line.item_id]!.price = newPrice;
    const blocked = carts.find((c) => c.user_id !== paid.user_id && !c.items.some((l) => paid.items.some((p) => p.item_id === l.item_id)))!;
    const gone = blocked.items.at(-1)!;
    changed.products[gone.product_id]!.variants[gone.item_id]!.available = false;
    const other = await startServer(t, { bases: new Map([['retail', baseFromFile(retail, changed, 'changed')]]) });

    const session = await other.newSession();
    const reply = await other.call('retail', 'checkout', { user_id: owner.user_id, payment_method_id: giftCard.id }, session);
    t.equal(reply.status, 200);
    t.same(reply.body, {
      order_id: reply.body.order_id,
      ...expectedOrder(paid, giftCard.id, owner.address, (id, stored) => (id === line.item_id ? newPrice : stored)),
    });

    const blockedUser = db.users[blocked.user_id]!;
    const refused = await other.call(
      'retail',
      'checkout',
      { user_id: blocked.user_id, payment_method_id: Object.keys(blockedUser.payment_methods)[0]! },
      session,
    );
    t.equal(refused.status, 409);
    t.equal(refused.body.detail, `Item ${gone.item_id} is no longer available; remove it from the cart`);
  });

  t.test('rules; nothing changes on error', async (t) => {
    const session = await server.newSession();
    const noCart = findUser((u) => !(u.user_id in db.carts));
    const short = carts.find((c) => giftCardsOf(db.users[c.user_id]!).some((g) => g.balance < cartTotal(c)))!;
    const shortCard = giftCardsOf(db.users[short.user_id]!).find((g) => g.balance < cartTotal(short))!;
    const stranger = findUser((u) => u.user_id !== owner.user_id && Object.keys(u.payment_methods).length > 0);
    const cases = [
      { args: { user_id: noCart.user_id, payment_method_id: Object.keys(noCart.payment_methods)[0]! }, status: 409, detail: 'Cart is empty' },
      { args: { user_id: owner.user_id, payment_method_id: Object.keys(stranger.payment_methods)[0]! }, status: 404, detail: 'Payment method not found' },
      { args: { user_id: short.user_id, payment_method_id: shortCard.id }, status: 422, detail: 'Insufficient gift card balance to pay for the order' },
      { args: { user_id: 'nobody_here_0000', payment_method_id: giftCard.id }, status: 404, detail: 'User not found' },
    ];
    await expectRejections(t, server, 'retail', 'checkout', cases, session);
    const address = { ...owner.address };
    const { zip: _zip, ...noZip } = address;
    for (const args of [
      { user_id: owner.user_id },
      { user_id: owner.user_id, payment_method_id: 7 },
      { user_id: owner.user_id, payment_method_id: giftCard.id, address: noZip },
      { user_id: owner.user_id, payment_method_id: giftCard.id, address: { ...address, phone: '555' } },
      { user_id: owner.user_id, payment_method_id: giftCard.id, address: 'home' },
    ]) {
      t.equal((await server.call('retail', 'checkout', args, session)).status, 400, JSON.stringify(args).slice(0, 80));
    }
    t.same((await server.request('GET', `/sessions/${session}/diff`)).body.retail, [], 'no record changed');
  });
});
