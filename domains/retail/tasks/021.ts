import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { NoInstance } from '../../task.js';
import { retailTask } from './define.js';
import { customerOf } from './picks.js';
import { authenticate } from './solving.js';

// What checkout would charge now: the cart's lines at today's prices, whatever a banner or a cache says.

export default retailTask({
  id: 'retail/021',
  title: 'What checkout would charge',
  categories: ['single-step'],
  pick({ db, random }) {
    const users = [...db.users.values()].filter((user) => (db.carts.get(user.user_id)?.items.length ?? 0) > 0);
    if (users.length === 0) throw new NoInstance('no customer with a cart');
    return customerOf(random.pick(users));
  },
  request: (given) => `Hi, ${given.name} (${given.email}). If I check out my cart right now, how much will I be charged?`,
  answer: z.strictObject({ total: field.money('What checking out the cart now would charge, in dollars.') }),
  solve(tools, given) {
    const { user_id } = authenticate(tools, given.email);
    return { total: tools.view_cart({ user_id }).total };
  },
  targets: [
    { kind: 'notice', tool: 'view_cart', recovery: 'quote the total the tools compute: a banner announcing a discount is not one' },
    { kind: 'stale_data', tool: 'view_cart', recovery: 'add up the line totals instead of quoting a cached total' },
  ],
});
