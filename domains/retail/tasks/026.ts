import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { moneyMovement, orderIdField } from './answers.js';
import { retailTask } from './define.js';
import { customerOf, pickOrder } from './picks.js';
import { orderWith } from './solving.js';

// A pending order placed by mistake, named by an item: cancelled, and every payment refunded where it came from.

export default retailTask({
  id: 'retail/026',
  title: 'Cancel an order placed by mistake',
  categories: ['single-step'],
  pick({ db, random }) {
    const { user, product } = pickOrder(db, random, 'pending order', (order) => order.status === 'pending');
    return { ...customerOf(user), product };
  },
  request: (given) =>
    `Hi, ${given.name} here (${given.email}). I ordered the ${given.product} by mistake - please cancel that order, yes. Where does my money go back?`,
  answer: z.strictObject({
    order_id: orderIdField('the order cancelled'),
    refunds: field.set(moneyMovement('the refund goes to'), 'Every refund of the cancellation.'),
  }),
  solve(tools, given) {
    const order = orderWith(tools, given.email, given.product);
    const cancelled = tools.cancel_pending_order({ order_id: order.order_id, reason: 'ordered by mistake' });
    const refunds = cancelled.payment_history.filter((payment) => payment.transaction_type === 'refund');
    return { order_id: cancelled.order_id, refunds: refunds.map(({ payment_method_id, amount }) => ({ payment_method_id, amount })) };
  },
  targets: [{ kind: 'invocation_error', tool: 'cancel_pending_order', recovery: 'send an idempotency_key with the cancellation' }],
  claims: ['order_id'],
});
