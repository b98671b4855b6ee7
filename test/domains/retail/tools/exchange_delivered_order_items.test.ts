import t from 'tap';
import { roundHalfEven } from '../../../../lib/money.js';
import type { Order, OrderItem, User, Variant } from '../../../../domains/retail/schema.js';
import { expectRejections, startServer } from '../../../helpers/server.js';
import { findOrder, findUser, giftCardsOf, retailFixture } from '../../../helpers/retail.js';

/** tau2-bench's exchange_price_difference: from 0, each (new price − old price) added in turn, then round(x, 2). */
const tau2Difference = (...pairs: (readonly [{ price: number }, { price: number }])[]) =>
  roundHalfEven(
    pairs.reduce((sum, [next, old]) => sum + (next.price - old.price), 0),
    2,
  );
const paidWith = (order: Order) => order.payment_history[0]!.payment_method_id;
const variantsOf = (item: OrderItem) => Object.values(retailFixture().products[item.product_id]!.variants);
const alternatives = (item: OrderItem) => variantsOf(item).filter((v) => v.available && v.item_id !== item.item_id);
const userOf = (order: Order) => findUser((u) => u.user_id === order.user_id);

t.test('exchange_delivered_order_items', async (t) => {
  const server = await startServer(t);
  const diff = async (session: string) => (await server.request('GET', `/sessions/${session}/diff`)).body.retail;

  t.test('"exchange requested", both lists sorted, rounded difference; no payment entry and no balance change', async (t) => {
    // Two items of different products, listed in descending order so that sorting shows.
    const pick = (o: Order, u: User) => {
      const [x, y] = [...o.items].sort((a, b) => (a.item_id < b.item_id ? 1 : -1));
      if (!x || !y || x.product_id === y.product_id) return undefined;
      // The highest new id first and the lowest second, so that the new ids too are given unsorted.
      const nx = alternatives(x).sort((a, b) => (a.item_id < b.item_id ? 1 : -1))[0];
      const ny = alternatives(y).sort((a, b) => (a.item_id < b.item_id ? -1 : 1))[0];
      if (!nx || !ny || nx.item_id < ny.item_id) return undefined;
      const difference = tau2Difference([nx, x], [ny, y]);
      const card = giftCardsOf(u).find((g) => g.balance >= difference);
      return card && { items: [x, y] as const, news: [nx, ny] as const, difference, card };
    };
    const order = findOrder((o, u) => o.status === 'delivered' && pick(o, u) !== undefined);
    const user = userOf(order);
    const { items, news, difference, card } = pick(order, user)!;
    const itemIds = items.map((i) => i.item_id);
    const newItemIds = news.map((v) => v.item_id);
    const session = await server.newSession();

    const reply = await server.call(
      'retail',
      'exchange_delivered_order_items',
      { order_id: order.order_id, item_ids: itemIds, new_item_ids: newItemIds, payment_method_id: card.id },
      session,
    );
    t.equal(reply.status, 200);
    t.strictSame(reply.body, {
      ...order,
      status: 'exchange requested',
      exchange_items: [...itemIds].sort(),
      exchange_new_items: [...newItemIds].sort(),
      exchange_payment_method_id: card.id,
      exchange_price_difference: difference,
    });
    t.notSame(reply.body.exchange_items, itemIds, 'old ids stored sorted, not as given');
    t.notSame(reply.body.exchange_new_items, newItemIds, 'new ids stored sorted, not as given');
    t.equal(reply.body.exchange_price_difference, Number(difference.toFixed(2)), 'rounded to cents');
    t.strictSame(reply.body.items, order.items, 'items stay until the exchange completes');
    t.strictSame(reply.body.payment_history, order.payment_history, 'no payment entry');

    const after = (await server.state(session)).retail;
    t.strictSame(after.orders[order.order_id], reply.body, 'the change sticks in the session');
    t.strictSame(after.users[user.user_id], user, 'no balance change');
    t.equal((await diff(session)).length, 1, 'only the order changed');
    t.strictSame((await server.state(await server.newSession())).retail.orders[order.order_id], order, 'other sessions do not see it');
  });

  t.test('a negative difference is stored negative; any method of the customer may receive it', async (t) => {
    const pick = (o: Order) => alternatives(o.items[0]!).find((v) => v.price < o.items[0]!.price);
    const order = findOrder((o) => o.status === 'delivered' && pick(o) !== undefined);
    const variant = pick(order)!;
    const item = order.items[0]!;
    const session = await server.newSession();
    const reply = await server.call(
      'retail',
      'exchange_delivered_order_items',
      { order_id: order.order_id, item_ids: [item.item_id], new_item_ids: [variant.item_id], payment_method_id: paidWith(order) },
      session,
    );
    t.equal(reply.status, 200);
    t.equal(reply.body.exchange_price_difference, tau2Difference([variant, item]));
    t.ok(reply.body.exchange_price_difference < 0);
  });

  t.test('like tau2-bench, an item may be exchanged for the same item (difference 0)', async (t) => {
    const order = findOrder((o) => o.status === 'delivered' && variantsOf(o.items[0]!).find((v) => v.item_id === o.items[0]!.item_id)!.available);
    const item = order.items[0]!;
    const session = await server.newSession();
    const reply = await server.call(
      'retail',
      'exchange_delivered_order_items',
      { order_id: order.order_id, item_ids: [item.item_id], new_item_ids: [item.item_id], payment_method_id: paidWith(order) },
      session,
    );
    t.equal(reply.status, 200);
    t.equal(reply.body.exchange_price_difference, 0);
  });

  t.test('rules: delivered, items of the order, matching counts, available variants of the same product, balance; nothing changes on error', async (t) => {
    const session = await server.newSession();
    const order = findOrder(
      (o, u) =>
        o.status === 'delivered' &&
        variantsOf(o.items[0]!).some((v) => !v.available) &&
        alternatives(o.items[0]!).length >= 2 &&
        giftCardsOf(u).some((g) => alternatives(o.items[0]!).some((v) => v.price - o.items[0]!.price > g.balance)),
    );
    const user = userOf(order);
    const item = order.items[0]!;
    const [b, c] = alternatives(item) as [Variant, Variant];
    const unavailable = variantsOf(item).find((v) => !v.available)!;
    const otherProduct = Object.values(retailFixture().products).find((p) => !order.items.some((i) => i.product_id === p.product_id))!;
    const foreignVariant = Object.values(otherProduct.variants).find((v) => v.available)!;
    const poorCard = giftCardsOf(user).find((g) => alternatives(item).some((v) => v.price - item.price > g.balance))!;
    const pricey = alternatives(item).find((v) => v.price - item.price > poorCard.balance)!;
    const notInOrder = findOrder((o) => !o.items.some((i) => order.items.some((j) => j.item_id === i.item_id))).items[0]!.item_id;
    const units = order.items.filter((i) => i.item_id === item.item_id).length;
    const stranger = findUser((u) => u.user_id !== user.user_id);
    const args = (item_ids: string[], new_item_ids: string[], payment_method_id = paidWith(order), order_id = order.order_id) => ({
      order_id,
      item_ids,
      new_item_ids,
      payment_method_id,
    });
    const nonDelivered = (['pending', 'pending (item modified)', 'processed', 'cancelled', 'exchange requested', 'return requested'] as const).map((status) => {
      const other = findOrder((o) => o.status === status);
      return {
        args: args([other.items[0]!.item_id], [other.items[0]!.item_id], paidWith(other), other.order_id),
        status: 409,
        detail: 'Non-delivered order cannot be exchanged',
        why: status,
      };
    });
    const cases = [
      ...nonDelivered,
      { args: args([notInOrder], [b.item_id]), status: 404, detail: `Number of ${notInOrder} not found.`, why: 'item not in the order' },
      {
        args: args(Array(units + 1).fill(item.item_id), Array(units + 1).fill(b.item_id)),
        status: 404,
        detail: `Number of ${item.item_id} not found.`,
        why: 'more units than the order holds',
      },
      { args: args([item.item_id], [b.item_id, c.item_id]), status: 422, detail: 'The number of items to be exchanged should match.', why: 'count mismatch' },
      { args: args([item.item_id], [foreignVariant.item_id]), status: 404, detail: 'Variant not found', why: 'variant of another product' },
      {
        args: args([item.item_id], [unavailable.item_id]),
        status: 422,
        detail: `New item ${unavailable.item_id} not found or available`,
        why: 'unavailable variant',
      },
      {
        args: args([item.item_id], [pricey.item_id], poorCard.id),
        status: 422,
        detail: 'Insufficient gift card balance to pay for the price difference',
        why: 'gift card too low',
      },
      { args: args([item.item_id], [b.item_id], 'gift_card_0000000'), status: 404, detail: 'Payment method not found', why: 'unknown method' },
      {
        args: args([item.item_id], [b.item_id], Object.keys(stranger.payment_methods)[0]!),
        status: 404,
        detail: 'Payment method not found',
        why: "another user's method",
      },
      { args: args([item.item_id], [b.item_id], paidWith(order), '#W0000000'), status: 404, detail: 'Order not found', why: 'unknown order' },
    ];
    await expectRejections(t, server, 'retail', 'exchange_delivered_order_items', cases, session);
    t.same(await diff(session), [], 'no record changed');
  });

  t.test('invalid arguments answer 400 naming the field, and change nothing', async (t) => {
    const session = await server.newSession();
    const order = findOrder((o) => o.status === 'delivered' && alternatives(o.items[0]!).length > 0);
    const item = order.items[0]!;
    const valid = { order_id: order.order_id, item_ids: [item.item_id], new_item_ids: [alternatives(item)[0]!.item_id], payment_method_id: paidWith(order) };
    const { new_item_ids: _omitted, ...withoutNew } = valid;
    const cases = [
      { args: withoutNew, field: 'new_item_ids' },
      { args: { ...valid, new_item_ids: valid.new_item_ids[0] }, field: 'new_item_ids' },
      { args: { ...valid, item_ids: [Number(item.item_id)] }, field: 'item_ids.0' },
      { args: { ...valid, payment_method_id: null }, field: 'payment_method_id' },
      { args: { ...valid, quantity: 1 }, field: 'quantity' },
    ];
    for (const { args, field } of cases) {
      const reply = await server.call('retail', 'exchange_delivered_order_items', args, session);
      t.equal(reply.status, 400, field);
      t.strictSame(
        reply.body.errors.map((e: any) => e.field),
        [field],
      );
    }
    t.same(await diff(session), [], 'no record changed');
  });
});
