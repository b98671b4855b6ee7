import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { retailTask } from './define.js';

// The customer names the order by what is in it: finding it takes their profile and their orders.

export default retailTask({
  id: 'retail/001',
  title: 'Cancel a pending order',
  categories: ['multi-step'],
  pick({ db, random }) {
    const pending = [...db.orders.values()].filter((order) => order.status === 'pending');
    // An item no other pending order of the customer holds names the order unambiguously.
    const candidates = pending.flatMap((order) => {
      const others = pending.filter((other) => other.user_id === order.user_id && other !== order);
      return order.items.filter((item) => !others.some((other) => other.items.some((o) => o.name === item.name))).map((item) => ({ order, item }));
    });
    const { order, item } = random.pick(candidates);
    const user = db.users.get(order.user_id)!;
    return { name: `${user.name.first_name} ${user.name.last_name}`, email: user.email, product: item.name.toLowerCase() };
  },
  request: (given) =>
    `Hi, this is ${given.name} (email ${given.email}). Please cancel my pending order with the ${given.product} in it, I no longer need it. Where does the ` +
    `refund go?`,
  answer: z.strictObject({
    order_id: field.id('The id of the order cancelled (#W…).'),
    refunds: field.set(
      z.strictObject({ payment_method_id: field.id('The payment method the refund goes to.'), amount: field.money('The amount refunded, in dollars.') }),
      'Every refund of the cancellation.',
    ),
  }),
  solve(tools, given) {
    const user_id = tools.find_user_id_by_email({ email: given.email });
    const user = tools.get_user_details({ user_id });
    const order = user.orders
      .map((order_id) => tools.get_order_details({ order_id }))
      .find((order) => order.status === 'pending' && order.items.some((item) => item.name.toLowerCase() === given.product))!;
    const cancelled = tools.cancel_pending_order({ order_id: order.order_id, reason: 'no longer needed' });
    const refunds = cancelled.payment_history.filter((payment) => payment.transaction_type === 'refund');
    return { order_id: cancelled.order_id, refunds: refunds.map(({ payment_method_id, amount }) => ({ payment_method_id, amount })) };
  },
  targets: [
    {
      kind: 'unknown_outcome',
      tool: 'cancel_pending_order',
      recovery: 'send the cancellation with an idempotency key and repeat it with the same key: a cancellation that went through is replayed, not refused',
    },
    { kind: 'transient_failure', tool: 'get_order_details', recovery: 'retry the read' },
  ],
  claims: ['order_id'],
});
