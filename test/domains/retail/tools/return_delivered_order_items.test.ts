import t from 'tap';
import type { Order, User } from '../../../../domains/retail/schema.js';
import { expectRejections, startServer } from '../../../helpers/server.js';
import { findOrder, findUser, giftCardsOf } from '../../../helpers/retail.js';
import { patchedRetailBases } from '../../../helpers/patched-retail.js';

const paidWith = (order: Order) => order.payment_history[0]!.payment_method_id;
const isGiftCardOf = (user: User, id: string) => giftCardsOf(user).some((g) => g.id === id);
const userOf = (order: Order) => findUser((u) => u.user_id === order.user_id);
const distinctItems = (order: Order) => new Set(order.items.map((i) => i.item_id)).size;

t.test('return_delivered_order_items', async (t) => {
  const server = await startServer(t);
  const diff = async (session: string) => (await server.request('GET', `/sessions/${session}/diff`)).body.retail;

  t.test('to the original method: "return requested", return_items sorted, no payment and no balance change', async (t) => {
    const order = findOrder((o) => o.status === 'delivered' && distinctItems(o) >= 2);
    const itemIds = order.items
      .map((i) => i.item_id)
      .sort()
      .reverse();
    const session = await server.newSession();

    const reply = await server.call(
      'retail',
      'return_delivered_order_items',
      { order_id: order.order_id, item_ids: itemIds, payment_method_id: paidWith(order) },
      session,
    );
    t.equal(reply.status, 200);
    t.strictSame(reply.body, { ...order, status: 'return requested', return_items: [...itemIds].sort(), return_payment_method_id: paidWith(order) });
    t.not(reply.body.return_items[0], itemIds[0], 'stored in sorted, not given, order');

    const after = (await server.state(session)).retail;
    t.strictSame(after.orders[order.order_id], reply.body, 'the change sticks in the session');
    t.strictSame(after.users[order.user_id], userOf(order), 'no refund is made yet: the user is unchanged');
    const changes = await diff(session);
    t.equal(changes.length, 1);
    t.match(changes[0], { table: 'orders', id: order.order_id, op: 'update' });
    t.strictSame((await server.state(await server.newSession())).retail.orders[order.order_id], order, 'other sessions do not see it');
  });

  t.test('to any gift card of the customer, even when the order was paid otherwise', async (t) => {
    const order = findOrder((o, u) => o.status === 'delivered' && !isGiftCardOf(u, paidWith(o)) && giftCardsOf(u).length > 0);
    const card = giftCardsOf(userOf(order))[0]!;
    const session = await server.newSession();
    const reply = await server.call(
      'retail',
      'return_delivered_order_items',
      { order_id: order.order_id, item_ids: [order.items[0]!.item_id], payment_method_id: card.id },
      session,
    );
    t.equal(reply.status, 200);
    t.equal(reply.body.return_payment_method_id, card.id);
    t.strictSame(reply.body.return_items, [order.items[0]!.item_id], 'a part of the order may be returned');
    t.strictSame(reply.body.payment_history, order.payment_history);
    t.equal((await server.state(session)).retail.users[order.user_id].payment_methods[card.id].balance, card.balance, 'the balance is unchanged');
  });

  t.test('an id may repeat up to its count in the order', async (t) => {
    const base = findOrder((o) => distinctItems(o) < o.items.length);
    const repeated = base.items.find((i) => base.items.filter((j) => j.item_id === i.item_id).length > 1)!.item_id;
    const count = base.items.filter((i) => i.item_id === repeated).length;
    // The only order with a repeated item is not delivered: deliver it.
    const bases = await patchedRetailBases((db) => {
      db.orders[base.order_id]!.status = 'delivered';
    });
    const patched = await startServer(t, { bases });
    const session = await patched.newSession();
    const tooMany = await patched.call(
      'retail',
      'return_delivered_order_items',
      { order_id: base.order_id, item_ids: Array(count + 1).fill(repeated), payment_method_id: paidWith(base) },
      session,
    );
    t.equal(tooMany.status, 404);
    t.equal(tooMany.body.detail, 'Some item not found');
    const reply = await patched.call(
      'retail',
      'return_delivered_order_items',
      { order_id: base.order_id, item_ids: Array(count).fill(repeated), payment_method_id: paidWith(base) },
      session,
    );
    t.equal(reply.status, 200);
    t.strictSame(reply.body.return_items, Array(count).fill(repeated));
  });

  t.test('rules: delivered, original method or a gift card, items of the order; nothing changes on error', async (t) => {
    const session = await server.newSession();
    const order = findOrder(
      (o, u) => o.status === 'delivered' && Object.values(u.payment_methods).some((m) => m.source !== 'gift_card' && m.id !== paidWith(o)),
    );
    const user = userOf(order);
    const otherMethod = Object.values(user.payment_methods).find((m) => m.source !== 'gift_card' && m.id !== paidWith(order))!;
    const item = order.items[0]!.item_id;
    const notInOrder = findOrder((o) => !o.items.some((i) => order.items.some((j) => j.item_id === i.item_id))).items[0]!.item_id;
    const stranger = findUser((u) => u.user_id !== user.user_id);
    const args = (item_ids: string[], payment_method_id = paidWith(order), order_id = order.order_id) => ({ order_id, item_ids, payment_method_id });
    const units = order.items.filter((i) => i.item_id === item).length;
    const nonDelivered = (['pending', 'pending (item modified)', 'processed', 'cancelled', 'exchange requested', 'return requested'] as const).map((status) => {
      const other = findOrder((o) => o.status === status);
      return {
        args: args([other.items[0]!.item_id], paidWith(other), other.order_id),
        status: 409,
        detail: 'Non-delivered order cannot be returned',
        why: status,
      };
    });
    const cases = [
      ...nonDelivered,
      { args: args([item], otherMethod.id), status: 422, detail: 'Payment method should be the original payment method', why: `another ${otherMethod.source}` },
      { args: args([notInOrder]), status: 404, detail: 'Some item not found', why: 'item not in the order' },
      { args: args(Array(units + 1).fill(item)), status: 404, detail: 'Some item not found', why: 'more units than the order holds' },
      { args: args([item], 'gift_card_0000000'), status: 404, detail: 'Payment method not found', why: 'unknown method' },
      { args: args([item], Object.keys(stranger.payment_methods)[0]!), status: 404, detail: 'Payment method not found', why: "another user's method" },
      { args: args([item], paidWith(order), '#W0000000'), status: 404, detail: 'Order not found', why: 'unknown order' },
    ];
    await expectRejections(t, server, 'retail', 'return_delivered_order_items', cases, session);
    t.same(await diff(session), [], 'no record changed');
  });

  t.test('invalid arguments answer 400 naming the field, and change nothing', async (t) => {
    const session = await server.newSession();
    const order = findOrder((o) => o.status === 'delivered');
    const valid = { order_id: order.order_id, item_ids: [order.items[0]!.item_id], payment_method_id: paidWith(order) };
    const cases = [
      { args: { ...valid, item_ids: undefined }, field: 'item_ids' },
      { args: { ...valid, item_ids: [] }, field: 'item_ids' },
      { args: { ...valid, item_ids: [null] }, field: 'item_ids.0' },
      { args: { ...valid, order_id: ['#W0000000'] }, field: 'order_id' },
      { args: { ...valid, reason: 'too small' }, field: 'reason' },
    ];
    for (const { args, field } of cases) {
      const reply = await server.call('retail', 'return_delivered_order_items', args, session);
      t.equal(reply.status, 400, field);
      t.strictSame(
        reply.body.errors.map((e: any) => e.field),
        [field],
      );
    }
    t.same(await diff(session), [], 'no record changed');
  });
});
