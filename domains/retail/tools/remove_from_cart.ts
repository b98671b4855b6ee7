import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { notFound, rejected } from '../../errors.js';
import { itemId, userId } from '../fields.js';
import { requireUser, type RetailDb } from '../db.js';
import { CartView, viewCart } from './view_cart.js';

export default defineTool({
  name: 'remove_from_cart',
  description:
    "Take an item out of a customer's cart: some of its units, or the whole line when no quantity is given. " +
    'Confirm with the customer and get an explicit "yes" first. Returns the whole cart (empty once the last ' +
    'item is gone).',
  input: z.strictObject({
    user_id: userId,
    item_id: itemId.describe('Item id of a line of the cart, as view_cart shows it.'),
    quantity: z.number().int().min(1).optional().describe('Units to remove, at most as many as the cart holds. Omit it to remove the item entirely.'),
  }),
  output: CartView,
  mutates: true,
  effect: { destructive: true, idempotent: false },
  run({ user_id, item_id, quantity }, db: RetailDb) {
    requireUser(db, user_id);
    const index = db.carts.get(user_id)?.items.findIndex((l) => l.item_id === item_id) ?? -1;
    if (index < 0) throw notFound(`Item ${item_id} is not in the cart`, 'item_not_in_cart');

    const cart = db.carts.edit(user_id)!;
    const line = cart.items[index]!;
    const removed = quantity ?? line.quantity;
    if (removed > line.quantity) {
      throw rejected(`Cannot remove ${removed} units of item ${item_id}: the cart holds ${line.quantity}`, 'quantity_exceeds_cart');
    }
    if (removed === line.quantity) cart.items.splice(index, 1);
    else line.quantity -= removed;
    if (cart.items.length === 0) db.carts.remove(user_id);
    return viewCart(db, user_id);
  },
});
