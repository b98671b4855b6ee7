import t from 'tap';
import { expectRejections, startServer } from '../../../helpers/server.js';
import { findOrder, giftCardsOf } from '../../../helpers/retail.js';

t.test('cancel_pending_order', async (t) => {
  const server = await startServer(t);
  const paidByGiftCard = findOrder(
    (order, user) => order.status === 'pending' && giftCardsOf(user).some((g) => g.id === order.payment_history[0]?.payment_method_id),
  );

  t.test('cancels a pending order, refunds every payment and credits the gift card at once', async (t) => {
    const session = await server.newSession();
    const before = (await server.state(session)).retail;
    const payment = paidByGiftCard.payment_history[0]!;
    const balanceBefore = before.users[paidByGiftCard.user_id].payment_methods[payment.payment_method_id].balance;

    const reply = await server.call('retail', 'cancel_pending_order', { order_id: paidByGiftCard.order_id, reason: 'ordered by mistake' }, session);
    t.equal(reply.status, 200);
    t.equal(reply.body.status, 'cancelled');
    t.equal(reply.body.cancel_reason, 'ordered by mistake');
    t.same(reply.body.payment_history.at(-1), { transaction_type: 'refund', amount: payment.amount, payment_method_id: payment.payment_method_id });

    const after = (await server.state(session)).retail;
    t.equal(after.orders[paidByGiftCard.order_id].status, 'cancelled', 'the change sticks in the session');
    const expected = Math.round((balanceBefore + payment.amount) * 100) / 100;
    t.equal(after.users[paidByGiftCard.user_id].payment_methods[payment.payment_method_id].balance, expected);
    t.equal((await server.state('default')).retail.orders[paidByGiftCard.order_id].status, 'pending', 'other sessions do not see it');
  });

  t.test('rules: status exactly pending, a known reason, an existing order; nothing changes on error', async (t) => {
    const session = await server.newSession();
    const delivered = findOrder((order) => order.status === 'delivered');
    const modified = findOrder((order) => order.status === 'pending (item modified)');
    const cases = [
      { args: { order_id: delivered.order_id, reason: 'no longer needed' }, status: 409, detail: 'Non-pending order cannot be cancelled' },
      { args: { order_id: modified.order_id, reason: 'no longer needed' }, status: 409, detail: 'Non-pending order cannot be cancelled' },
      { args: { order_id: paidByGiftCard.order_id, reason: 'found it cheaper' }, status: 422, detail: 'Invalid reason', field: 'reason' },
      { args: { order_id: '#W0000000', reason: 'no longer needed' }, status: 404, detail: 'Order not found' },
    ];
    await expectRejections(t, server, 'retail', 'cancel_pending_order', cases, session);
    const diff = (await server.request('GET', `/sessions/${session}/diff`)).body;
    t.same(diff.retail, [], 'no record changed');
  });
});
