import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { NoInstance } from '../../task.js';
import { currentVariant } from '../db.js';
import { retailTask } from './define.js';
import { customerOf, optionWords } from './picks.js';
import { authenticate } from './solving.js';

// More units of an item already in the cart, to a total the customer gives: how the quantity combines with
// the units already there is what the listing may leave out.

export default retailTask({
  id: 'retail/022',
  title: 'More units of an item in the cart',
  categories: ['single-step'],
  pick({ db, random }) {
    const lines = [...db.carts.values()].flatMap((cart) => {
      const user = db.users.get(cart.user_id);
      if (!user) return [];
      return (
        cart.items
          // A line the customer can name by its product alone, of an item that can be ordered, with room for more
          // (also when the units wanted in all are added to those in the cart: at most 10 a line).
          .filter((line) => cart.items.filter((other) => other.name === line.name).length === 1)
          .filter((line) => currentVariant(db, line.product_id, line.item_id)?.available && line.quantity <= 4)
          .map((line) => ({ user, line }))
      );
    });
    if (lines.length === 0) throw new NoInstance('no cart line with room for more units');
    const { user, line } = random.pick(lines);
    const target = line.quantity + random.int(1, Math.min(3, 10 - 2 * line.quantity));
    return { ...customerOf(user), product: line.name.toLowerCase(), options: optionWords(line.options), target };
  },
  request: (given) =>
    `Hi, ${given.name} here (${given.email}). I have some of the ${given.product} (${given.options}) in my cart already; I'd like ${given.target} of them in ` +
    `my cart in total. Yes, please update it.`,
  answer: z.strictObject({
    item_id: field.id('The item whose units were changed.'),
    quantity: field.count('The units of that item the cart holds now.'),
  }),
  solve(tools, given) {
    const { user_id } = authenticate(tools, given.email);
    const line = tools.view_cart({ user_id }).items.find((l) => l.name.toLowerCase() === given.product)!;
    const cart = tools.add_to_cart({ user_id, item_id: line.item_id, quantity: given.target - line.quantity });
    return { item_id: line.item_id, quantity: cart.items.find((l) => l.item_id === line.item_id)!.quantity };
  },
  targets: [
    {
      kind: 'ambiguous_doc',
      tool: 'add_to_cart',
      recovery: 'check the cart the tool returns against the units asked for and correct it at once (remove_from_cart the surplus)',
    },
  ],
  claims: ['quantity'],
});
