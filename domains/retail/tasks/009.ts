import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { NoInstance } from '../../task.js';
import { orderIdField, orderStatusField } from './answers.js';
import { retailTask } from './define.js';
import { customerOf, ordersOf } from './picks.js';

// Every order of a customer with several, some delivered and some not: the listing comes a page at a time.

export default retailTask({
  id: 'retail/009',
  title: 'All my orders, and which are delivered',
  categories: ['multi-step'],
  pick({ db, random }) {
    const users = [...db.users.values()].filter((user) => {
      const orders = ordersOf(db, user);
      const delivered = orders.filter((order) => order.status === 'delivered').length;
      return orders.length >= 3 && orders.length <= 10 && delivered > 0 && delivered < orders.length;
    });
    if (users.length === 0) throw new NoInstance('no customer with three to ten orders, some delivered');
    return customerOf(random.pick(users));
  },
  request: (given) => `Hi, ${given.name} here (${given.email}). Can you list all my orders with their status, and tell me which ones have been delivered?`,
  answer: z.strictObject({
    orders: field.set(z.strictObject({ order_id: orderIdField('an order'), status: orderStatusField('the order') }), 'Every order of the customer.'),
    delivered: field.set(field.id('An order id (#W…).'), 'The orders that have been delivered (status delivered).'),
  }),
  solve(tools, given) {
    const user_id = tools.find_user_id_by_email({ email: given.email });
    const orders = tools.list_user_orders({ user_id, page_size: 50 }).orders;
    const delivered = tools.list_user_orders({ user_id, status: 'delivered', page_size: 50 }).orders;
    return { orders: orders.map(({ order_id, status }) => ({ order_id, status })), delivered: delivered.map((order) => order.order_id) };
  },
  targets: [
    { kind: 'spec_drift', tool: 'list_user_orders', recovery: "follow the parameter's new name (customer_id) in the re-read listing" },
    { kind: 'truncated', tool: 'list_user_orders', recovery: 'follow next_page_token until it is null' },
    { kind: 'feature_limit', tool: 'list_user_orders', recovery: 'ask for at most 5 orders per page and follow next_page_token' },
  ],
});
