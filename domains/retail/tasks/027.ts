import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { orderIdField, orderStatusField } from './answers.js';
import { retailTask } from './define.js';
import { customerOf, pickOrder } from './picks.js';
import { orderWith } from './solving.js';

// A cancellation asked for an order that was delivered: only pending orders can be cancelled, so nothing is done.

export default retailTask({
  id: 'retail/027',
  title: 'Cancel a delivered order',
  categories: ['refusal'],
  pick({ db, random }) {
    const { user, product } = pickOrder(db, random, 'delivered order', (order) => order.status === 'delivered');
    return { ...customerOf(user), product };
  },
  request: (given) => `Hi, ${given.name} (${given.email}). Please cancel my order with the ${given.product}, I don't need it any more.`,
  answer: z.strictObject({
    order_id: orderIdField('the order'),
    status: orderStatusField('the order'),
    outcome: field.choice(['cancelled', 'not_pending', 'not_yours'], 'cancelled when the order was cancelled; otherwise why it was not.'),
  }),
  solve(tools, given) {
    const order = orderWith(tools, given.email, given.product);
    return { order_id: order.order_id, status: order.status, outcome: 'not_pending' as const };
  },
  targets: [{ kind: 'transient_failure', tool: 'get_order_details', recovery: 'retry the read' }],
  forbidden: [{ tool: 'cancel_pending_order', why: 'only pending orders can be cancelled; this one was delivered' }],
});
