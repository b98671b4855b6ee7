import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { NoInstance } from '../../task.js';
import { orderIdField, orderStatusField } from './answers.js';
import { retailTask } from './define.js';
import { customerOf, namingItems, ordersOf } from './picks.js';
import { authenticate } from './solving.js';

// Two orders of one customer, each named by an item: their statuses, read side by side.

export default retailTask({
  id: 'retail/008',
  title: 'Status of two orders',
  categories: ['parallel'],
  pick({ db, random }) {
    const users = [...db.users.values()].filter((user) => ordersOf(db, user).filter((order) => namingItems(db, order).length > 0).length >= 2);
    if (users.length === 0) throw new NoInstance('no customer with two orders named by their items');
    const user = random.pick(users);
    const [first, second] = random.sample(
      ordersOf(db, user).filter((order) => namingItems(db, order).length > 0),
      2,
    );
    return { ...customerOf(user), products: [random.pick(namingItems(db, first!)), random.pick(namingItems(db, second!))] };
  },
  request: (given) =>
    `Hi, I'm ${given.name} (${given.email}). What's the status of my order with the ${given.products[0]} and of my order with the ${given.products[1]}?`,
  answer: z.strictObject({
    orders: field.set(z.strictObject({ order_id: orderIdField('the order'), status: orderStatusField('the order') }), 'The two orders asked about.'),
  }),
  solve(tools, given) {
    const { profile } = authenticate(tools, given.email);
    const orders = profile.orders.map((order_id) => tools.get_order_details({ order_id }));
    const asked = orders.filter((order) => order.items.some((item) => given.products.includes(item.name.toLowerCase())));
    return { orders: asked.map(({ order_id, status }) => ({ order_id, status })) };
  },
  targets: [
    { kind: 'spec_drift', tool: 'get_order_details', recovery: "follow the parameter's new name (order_ref) in the re-read listing" },
    { kind: 'transport_fault', tool: 'get_order_details', recovery: 'retry the same call' },
  ],
});
