import t from 'tap';
import type { Order, User } from '../../../../domains/retail/schema.js';
import { expectRejections, startServer } from '../../../helpers/server.js';
import { findOrder, findUser, giftCardsOf } from '../../../helpers/retail.js';
import { patchedRetailBases } from '../../../helpers/patched-retail.js';

const cents = (x: number) => Math.round(x * 100) / 100;
const paidWith = (order: Order) => order.payment_history[0]!.payment_method_id;
const isGiftCardOf = (user: User, id: string) => giftCardsOf(user).some((g) => g.id === id);
const singlePayment = (order: Order) => order.payment_history.length === 1 && order.payment_history[0]!.transaction_type === 'payment';

t.test('modify_pending_order_payment', async (t) => {
  const server = await startServer(t);
  const diff = async (session: string) => (await server.request('GET', `/sessions/${session}/diff`)).body.retail;

  t.test('card to gift card: a payment on the gift card, a refund to the old method, the gift card debited', async (t) => {
    const order = findOrder(
      (o, u) =>
        o.status === 'pending' && singlePayment(o) && !isGiftCardOf(u, paidWith(o)) && giftCardsOf(u).some((g) => g.balance >= o.payment_history[0]!.amount),
    );
    const user = findUser((u) => u.user_id === order.user_id);
    const amount = order.payment_history[0]!.amount;
    const card = giftCardsOf(user).find((g) => g.balance >= amount)!;
    const session = await server.newSession();

    const reply = await server.call('retail', 'modify_pending_order_payment', { order_id: order.order_id, payment_method_id: card.id }, session);
    t.equal(reply.status, 200);
    t.strictSame(reply.body, {
      ...order,
      payment_history: [
        ...order.payment_history,
        { transaction_type: 'payment', amount, payment_method_id: card.id },
        { transaction_type: 'refund', amount, payment_method_id: paidWith(order) },
      ],
    });
    t.equal(reply.body.status, 'pending', 'the status stays');

    const after = (await server.state(session)).retail;
    t.strictSame(after.orders[order.order_id], reply.body, 'the change sticks in the session');
    const balance = after.users[user.user_id].payment_methods[card.id].balance;
    t.equal(balance, cents(card.balance - amount), 'the gift card pays the amount');
    t.equal(balance, Number(balance.toFixed(2)), 'rounded to cents');
    t.strictSame(after.users[user.user_id].payment_methods[paidWith(order)], user.payment_methods[paidWith(order)], 'the old method is unchanged');

    const other = await server.newSession();
    const untouched = (await server.state(other)).retail;
    t.strictSame(untouched.orders[order.order_id], order, 'other sessions do not see the order change');
    t.equal(untouched.users[user.user_id].payment_methods[card.id].balance, card.balance, 'nor the balance');
  });

  t.test('gift card to gift card: both balances adjusted at once, rounded to cents', async (t) => {
    const order = findOrder(
      (o, u) =>
        o.status === 'pending' &&
        singlePayment(o) &&
        isGiftCardOf(u, paidWith(o)) &&
        giftCardsOf(u).some((g) => g.id !== paidWith(o) && g.balance >= o.payment_history[0]!.amount),
    );
    const user = findUser((u) => u.user_id === order.user_id);
    const amount = order.payment_history[0]!.amount;
    const oldCard = giftCardsOf(user).find((g) => g.id === paidWith(order))!;
    const newCard = giftCardsOf(user).find((g) => g.id !== oldCard.id && g.balance >= amount)!;
    const session = await server.newSession();

    const reply = await server.call('retail', 'modify_pending_order_payment', { order_id: order.order_id, payment_method_id: newCard.id }, session);
    t.equal(reply.status, 200);
    t.strictSame(reply.body.payment_history.slice(1), [
      { transaction_type: 'payment', amount, payment_method_id: newCard.id },
      { transaction_type: 'refund', amount, payment_method_id: oldCard.id },
    ]);
    const methods = (await server.state(session)).retail.users[user.user_id].payment_methods;
    t.equal(methods[newCard.id].balance, cents(newCard.balance - amount), 'new card debited');
    t.equal(methods[oldCard.id].balance, cents(oldCard.balance + amount), 'old card credited');
    for (const id of [newCard.id, oldCard.id]) t.equal(methods[id].balance, Number(methods[id].balance.toFixed(2)), `${id} in cents`);
  });

  t.test('gift card to another method: the old gift card is credited', async (t) => {
    const order = findOrder(
      (o, u) =>
        o.status === 'pending' && singlePayment(o) && isGiftCardOf(u, paidWith(o)) && Object.values(u.payment_methods).some((m) => m.source !== 'gift_card'),
    );
    const user = findUser((u) => u.user_id === order.user_id);
    const amount = order.payment_history[0]!.amount;
    const oldCard = giftCardsOf(user).find((g) => g.id === paidWith(order))!;
    const method = Object.values(user.payment_methods).find((m) => m.source !== 'gift_card')!;
    const session = await server.newSession();

    const reply = await server.call('retail', 'modify_pending_order_payment', { order_id: order.order_id, payment_method_id: method.id }, session);
    t.equal(reply.status, 200);
    t.strictSame(reply.body.payment_history.slice(1), [
      { transaction_type: 'payment', amount, payment_method_id: method.id },
      { transaction_type: 'refund', amount, payment_method_id: oldCard.id },
    ]);
    const methods = (await server.state(session)).retail.users[user.user_id].payment_methods;
    t.equal(methods[oldCard.id].balance, cents(oldCard.balance + amount));
    t.strictSame(methods[method.id], method);
  });

  t.test('accepts "pending (item modified)" when the order still has a single payment', async (t) => {
    const base = findOrder(
      (o, u) => o.status === 'pending' && singlePayment(o) && Object.values(u.payment_methods).some((m) => m.source !== 'gift_card' && m.id !== paidWith(o)),
    );
    const user = findUser((u) => u.user_id === base.user_id);
    const method = Object.values(user.payment_methods).find((m) => m.source !== 'gift_card' && m.id !== paidWith(base))!;
    const bases = await patchedRetailBases((db) => {
      db.orders[base.order_id]!.status = 'pending (item modified)';
    });
    const patched = await startServer(t, { bases });
    const session = await patched.newSession();
    const reply = await patched.call('retail', 'modify_pending_order_payment', { order_id: base.order_id, payment_method_id: method.id }, session);
    t.equal(reply.status, 200);
    t.equal(reply.body.status, 'pending (item modified)');
    t.equal(reply.body.payment_history.length, 3);
  });

  t.test('rules: status, one payment, another method, balance, known ids; nothing changes on error', async (t) => {
    const session = await server.newSession();
    const pending = findOrder(
      (o, u) => o.status === 'pending' && singlePayment(o) && giftCardsOf(u).some((g) => g.id !== paidWith(o) && g.balance < o.payment_history[0]!.amount),
    );
    const pendingUser = findUser((u) => u.user_id === pending.user_id);
    const poorCard = giftCardsOf(pendingUser).find((g) => g.id !== paidWith(pending) && g.balance < pending.payment_history[0]!.amount)!;
    const modified = findOrder((o) => o.status === 'pending (item modified)' && o.payment_history.length > 1);
    const stranger = findUser((u) => u.user_id !== pending.user_id && Object.keys(u.payment_methods).length > 0);
    const nonPending = (['processed', 'delivered', 'cancelled', 'exchange requested', 'return requested'] as const).map((status) => {
      const order = findOrder((o) => o.status === status);
      return {
        args: { order_id: order.order_id, payment_method_id: paidWith(order) },
        status: 409,
        detail: 'Non-pending order cannot be modified',
        why: status,
      };
    });
    const cases = [
      ...nonPending,
      {
        args: { order_id: modified.order_id, payment_method_id: paidWith(modified) },
        status: 409,
        detail: 'There should be exactly one payment for a pending order',
        why: 'item modified: two payments',
      },
      {
        args: { order_id: pending.order_id, payment_method_id: paidWith(pending) },
        status: 422,
        detail: 'The new payment method should be different from the current one',
        why: 'same method',
      },
      {
        args: { order_id: pending.order_id, payment_method_id: poorCard.id },
        status: 422,
        detail: 'Insufficient gift card balance to pay for the order',
        why: 'balance too low',
      },
      { args: { order_id: pending.order_id, payment_method_id: 'gift_card_0000000' }, status: 404, detail: 'Payment method not found', why: 'unknown method' },
      {
        args: { order_id: pending.order_id, payment_method_id: Object.keys(stranger.payment_methods)[0] },
        status: 404,
        detail: 'Payment method not found',
        why: "another user's method",
      },
      { args: { order_id: '#W0000000', payment_method_id: paidWith(pending) }, status: 404, detail: 'Order not found', why: 'unknown order' },
    ];
    await expectRejections(t, server, 'retail', 'modify_pending_order_payment', cases, session);
    t.same(await diff(session), [], 'no record changed');
  });

  t.test('invalid arguments answer 400 naming the field, and change nothing', async (t) => {
    const session = await server.newSession();
    const order = findOrder((o) => o.status === 'pending');
    const cases = [
      { args: { order_id: order.order_id }, field: 'payment_method_id' },
      { args: { order_id: order.order_id, payment_method_id: 1234 }, field: 'payment_method_id' },
      { args: { order_id: order.order_id, payment_method_id: paidWith(order), amount: 10 }, field: 'amount' },
    ];
    for (const { args, field } of cases) {
      const reply = await server.call('retail', 'modify_pending_order_payment', args, session);
      t.equal(reply.status, 400, field);
      t.strictSame(
        reply.body.errors.map((e: any) => e.field),
        [field],
      );
    }
    t.same(await diff(session), [], 'no record changed');
  });
});
