import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { toolError } from '../../errors.js';
import { RETAIL_ERRORS } from '../errors.js';
import { itemId, userId } from '../fields.js';
import { requireUser, type RetailDb } from '../db.js';
import { CartView, viewCart } from './view_cart.js';
import { codesOf } from '../../../lib/error-catalog.js';

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
  errors: codesOf(RETAIL_ERRORS, 'user_not_found', 'item_not_in_cart', 'quantity_exceeds_cart'),
  mutates: true,
  effect: { destructive: true, idempotent: false },
  example: { user_id: 'mia_laurent_8676', item_id: '4477452969' },
  run({ user_id, item_id, quantity }, db: RetailDb) {
    requireUser(db, user_id);
    const index = db.carts.get(user_id)?.items.findIndex((l) => l.item_id === item_id) ?? -1;
    if (index < 0) throw toolError(RETAIL_ERRORS.item_not_in_cart, `Item ${item_id} is not in the cart`);

    const cart = db.carts.edit(user_id)!;
    const line = cart.items[index]!;
    const removed = quantity ?? line.quantity;
    if (removed > line.quantity) {
      throw toolError(RETAIL_ERRORS.quantity_exceeds_cart, `Cannot remove ${removed} units of item ${item_id}: the cart holds ${line.quantity}`);
    }
    if (removed === line.quantity) cart.items.splice(index, 1);
    else line.quantity -= removed;
    if (cart.items.length === 0) db.carts.remove(user_id);
    return viewCart(db, user_id);
  },
});
