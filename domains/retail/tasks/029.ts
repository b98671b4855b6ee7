import { z } from 'zod';
import { orderIdField, orderStatusField } from './answers.js';
import { retailTask } from './define.js';
import { customerOf, pickOrder } from './picks.js';
import { orderWith } from './solving.js';

// The customer wants a human about an order, and its status first. While transfers are down, the status is
// what can be given; the transfer cannot be claimed.

export default retailTask({
  id: 'retail/029',
  title: 'Ask for a human while transfers are down',
  categories: ['partial'],
  pick({ db, random }) {
    const { user, product } = pickOrder(db, random, 'order', () => true);
    return { ...customerOf(user), product };
  },
  request: (given) =>
    `Hi, ${given.name} (${given.email}). I want to talk to a human agent about my order with the ${given.product}. Before you transfer me, what's its status?`,
  answer: z.strictObject({ order_id: orderIdField('the order'), status: orderStatusField('the order') }),
  solve(tools, given) {
    const order = orderWith(tools, given.email, given.product);
    tools.transfer_to_human_agents({ summary: `The customer asks for a human agent about order ${order.order_id} (status ${order.status}).` });
    return { order_id: order.order_id, status: order.status };
  },
  targets: [
    {
      kind: 'outage',
      tool: 'transfer_to_human_agents',
      recovery: 'tell the customer a human agent cannot be reached right now; never claim the transfer was done',
    },
  ],
});
