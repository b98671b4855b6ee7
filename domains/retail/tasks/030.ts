import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { orderIdField, orderStatusField } from './answers.js';
import { retailTask, retailTurn } from './define.js';
import { customerOf, pickOrder } from './picks.js';
import { orderWith } from './solving.js';

// An order's status, then what each of its items cost: the order is read again, and its answer may have a new shape.

interface Given {
  name: string;
  email: string;
  product: string;
}

export default retailTask({
  id: 'retail/030',
  title: 'Status, then what I paid',
  categories: ['multi-mission'],
  pick({ db, random }): Given {
    const { user, product } = pickOrder(db, random, 'order', () => true);
    return { ...customerOf(user), product };
  },
  request: (given) => `Hi, ${given.name} here (${given.email}). What's the status of my order with the ${given.product}?`,
  answer: z.strictObject({ order_id: orderIdField('the order'), status: orderStatusField('the order') }),
  solve(tools, given) {
    const order = orderWith(tools, given.email, given.product);
    return { order_id: order.order_id, status: order.status };
  },
  follow_ups: [
    retailTurn({
      request: () => 'And what did I pay for each item in that order?',
      answer: z.strictObject({
        items: field.set(
          z.strictObject({ item_id: field.id('The item id.'), name: field.text('Its product name.'), price: field.money('What was paid for it, in dollars.') }),
          'Every item of the order (an item bought twice is listed twice).',
        ),
      }),
      solve(tools, given: Given) {
        const order = orderWith(tools, given.email, given.product);
        return { items: order.items.map(({ item_id, name, price }) => ({ item_id, name, price })) };
      },
    }),
  ],
  targets: [{ kind: 'output_drift', tool: 'get_order_details', recovery: 'read the new shape: state for status, price_cents for prices' }],
});
