import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { addressAnswer, addressField, orderIdField } from './answers.js';
import { retailTask } from './define.js';
import { customerOf, pickOrder } from './picks.js';
import { orderWith } from './solving.js';

// Where an order went and what paid it: the maintained tool's answer has both, a deprecated look-alike neither.

export default retailTask({
  id: 'retail/013',
  title: 'Where an order went and how it was paid',
  categories: ['single-step'],
  pick({ db, random }) {
    const { user, product } = pickOrder(
      db,
      random,
      'shipped order',
      (order) => (order.status === 'delivered' || order.status === 'processed') && order.payment_history.length > 0,
    );
    return { ...customerOf(user), product };
  },
  request: (given) =>
    `Hi, ${given.name} (${given.email}). Where was my order with the ${given.product} shipped to, and which payment method did I pay it with?`,
  answer: z.strictObject({
    order_id: orderIdField('the order'),
    ships_to: addressField('The shipping address of the order.'),
    payment_method_id: field.id('The payment method that paid the order (its first payment), as the tools give it.'),
  }),
  solve(tools, given) {
    const order = orderWith(tools, given.email, given.product);
    return { order_id: order.order_id, ships_to: addressAnswer(order.address), payment_method_id: order.payment_history[0]!.payment_method_id };
  },
  targets: [
    { kind: 'lookalike', tool: 'get_order_details', recovery: 'call get_order_details, not the deprecated get_order_info' },
    { kind: 'transient_failure', tool: 'get_order_details', recovery: 'retry the read' },
  ],
});
