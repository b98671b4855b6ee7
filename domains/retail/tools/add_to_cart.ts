import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { toolError } from '../../errors.js';
import { RETAIL_ERRORS } from '../errors.js';
import { cartQuantity, itemId, userId } from '../fields.js';
import { requireItemWithProduct, requireUser, type RetailDb } from '../db.js';
import { CartView, viewCart } from './view_cart.js';
import { codesOf } from '../../../lib/error-catalog.js';

/** Most units of one item a cart line may hold. */
export const MAX_UNITS_PER_LINE = 10;

export default defineTool({
  name: 'add_to_cart',
  description:
    "Put units of an item (one variant of a product, by item id) into a customer's cart. The item must be " +
    'available; adding an item already in the cart raises its quantity, up to 10 units per item. Nothing is ' +
    'ordered or charged until checkout. Confirm the item, its options and the quantity with the customer and get ' +
    'an explicit "yes" first. Returns the whole cart.',
  input: z.strictObject({
    user_id: userId,
    item_id: itemId,
    quantity: cartQuantity.default(1).describe('Units to add, 1 to 10 (default 1).'),
  }),
  output: CartView,
  errors: codesOf(RETAIL_ERRORS, 'user_not_found', 'item_not_found', 'item_unavailable', 'too_many_units'),
  mutates: true,
  effect: { destructive: false, idempotent: false },
  example: { user_id: 'carlos_lee_2748', item_id: '3234874992' },
  run({ user_id, item_id, quantity }, db: RetailDb) {
    requireUser(db, user_id);
    const { product, variant } = requireItemWithProduct(db, item_id);
    if (!variant.available) throw toolError(RETAIL_ERRORS.item_unavailable, `Item ${item_id} is not available`, { status: 409 });

    const cart = db.carts.edit(user_id);
    const line = cart?.items.find((l) => l.item_id === item_id);
    const units = (line?.quantity ?? 0) + quantity;
    if (units > MAX_UNITS_PER_LINE) {
      throw toolError(RETAIL_ERRORS.too_many_units, `At most ${MAX_UNITS_PER_LINE} units of an item per cart`);
    }
    if (line) {
      line.quantity = units;
    } else {
      const newLine = {
        item_id,
        product_id: product.product_id,
        name: product.name,
        options: { ...variant.options },
        unit_price: variant.price,
        quantity,
      };
      if (cart) cart.items.push(newLine);
      else db.carts.put(user_id, { user_id, items: [newLine] });
    }
    return viewCart(db, user_id);
  },
});
