import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { NoInstance } from '../../task.js';
import { carrierField, orderIdField, orderStatusField } from './answers.js';
import { retailTask } from './define.js';
import { customerOf, namingItems, ordersOf, trackingIdsOf } from './picks.js';
import { authenticate, packagesOf } from './solving.js';

// Two shipped orders of one customer, each named by an item: were they delivered, and by whom?

export default retailTask({
  id: 'retail/010',
  title: 'Were my two orders delivered',
  categories: ['parallel'],
  pick({ db, random }) {
    const shipped = (user: Parameters<typeof ordersOf>[1]) =>
      ordersOf(db, user).filter((order) => trackingIdsOf(order).length > 0 && namingItems(db, order).length > 0);
    const users = [...db.users.values()].filter((user) => shipped(user).length >= 2);
    if (users.length === 0) throw new NoInstance('no customer with two shipped orders named by their items');
    const user = random.pick(users);
    const [first, second] = random.sample(shipped(user), 2);
    return { ...customerOf(user), products: [random.pick(namingItems(db, first!)), random.pick(namingItems(db, second!))] };
  },
  request: (given) =>
    `Hi, ${given.name} here (${given.email}). Were my order with the ${given.products[0]} and my order with the ${given.products[1]} delivered, and by which ` +
    `carriers?`,
  answer: z.strictObject({
    orders: field.set(
      z.strictObject({
        order_id: orderIdField('the order'),
        status: orderStatusField('the order'),
        packages: field.set(z.strictObject({ tracking_id: field.id("The package's tracking id."), carrier: carrierField }), 'Every package of the order.'),
      }),
      'The two orders asked about.',
    ),
  }),
  solve(tools, given) {
    const { profile } = authenticate(tools, given.email);
    const orders = profile.orders.map((order_id) => tools.get_order_details({ order_id }));
    const asked = orders.filter((order) => order.items.some((item) => given.products.includes(item.name.toLowerCase())));
    return {
      orders: asked.map((order) => ({
        order_id: order.order_id,
        status: order.status,
        packages: packagesOf(tools, order.order_id).map(({ tracking_id, carrier }) => ({ tracking_id, carrier })),
      })),
    };
  },
  targets: [{ kind: 'adhoc_rule', tool: 'track_order', recovery: "send the order id without the leading '#', as track_order's description says" }],
});
