import { z } from 'zod';
import { addressAnswer, addressField, orderIdField } from './answers.js';
import { retailTask } from './define.js';
import { addressWords, customerOf, isPending, newAddress, pickOrder } from './picks.js';
import { orderWith } from './solving.js';

// A pending order moves to a new address; the customer wants to hear where it ships now.

export default retailTask({
  id: 'retail/006',
  title: 'Ship a pending order to a new address',
  categories: ['multi-step'],
  pick({ db, random }) {
    const { user, product } = pickOrder(db, random, 'pending order', isPending);
    return { ...customerOf(user), product, address: newAddress(random) };
  },
  request: (given) =>
    `Hi, I'm ${given.name}, ${given.email}. I'm moving: please ship my order with the ${given.product} to ${addressWords(given.address)} instead. Yes, go ` +
    `ahead with the change, and confirm where it will ship.`,
  answer: z.strictObject({
    order_id: orderIdField('the order'),
    ships_to: addressField('Where the order ships now, as the order on file says.'),
  }),
  solve(tools, given) {
    const order = orderWith(tools, given.email, given.product);
    const moved = tools.modify_pending_order_address({ order_id: order.order_id, ...given.address });
    return { order_id: moved.order_id, ships_to: addressAnswer(tools.get_order_details({ order_id: moved.order_id }).address) };
  },
  targets: [
    {
      kind: 'adhoc_rule',
      tool: 'modify_pending_order_address',
      recovery: "send the country as an ISO 3166-1 alpha-2 code ('US'), as the parameter's description says",
    },
    {
      kind: 'eventual_consistency',
      tool: 'modify_pending_order_address',
      recovery: "trust the change's own answer (a read right after the write may lag); do not report a failure nor repeat the change",
    },
  ],
  claims: ['ships_to'],
});
