import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { roundHalfEven, sumMoney } from '../../../lib/money.js';
import { userId } from '../fields.js';
import { currentVariant, requireUser, type RetailDb } from '../db.js';

/** A cart as the cart tools return it: each line at today's catalog price. */
export const CartView = z.object({
  user_id: z.string(),
  items: z.array(
    z.object({
      item_id: z.string(),
      product_id: z.string(),
      name: z.string().describe('Product name.'),
      options: z.record(z.string(), z.string()),
      unit_price: z.number().describe('Current catalog price of one unit (it may differ from the price when added).'),
      quantity: z.number().int(),
      line_total: z.number().describe('unit_price × quantity, rounded to cents.'),
    }),
  ),
  item_count: z.number().int().describe('Number of units in the cart.'),
  total: z.number().describe('Sum of the line totals: what checkout would charge now.'),
});
export type CartView = z.infer<typeof CartView>;

/** The user's cart (empty when there is none) with current prices; throws 404 for an unknown user. */
export function viewCart(db: RetailDb, user_id: string): CartView {
  requireUser(db, user_id);
  const lines = db.carts.get(user_id)?.items ?? [];
  const items = lines.map((line) => {
    const unit_price = currentVariant(db, line.product_id, line.item_id)?.price ?? line.unit_price;
    return {
      item_id: line.item_id,
      product_id: line.product_id,
      name: line.name,
      options: { ...line.options },
      unit_price,
      quantity: line.quantity,
      line_total: roundHalfEven(unit_price * line.quantity, 2),
    };
  });
  return {
    user_id,
    items,
    item_count: items.reduce((sum, item) => sum + item.quantity, 0),
    total: sumMoney(items.map((item) => item.line_total)),
  };
}

export default defineTool({
  name: 'view_cart',
  description:
    "A customer's shopping cart: each item with its options, quantity and current price, the number of units and " +
    "the total that checkout would charge now. Prices are today's catalog prices, which may differ from the price " +
    'when the item was added. A customer without a cart has an empty one.',
  input: z.strictObject({ user_id: userId }),
  output: CartView,
  mutates: false,
  run: ({ user_id }, db: RetailDb) => viewCart(db, user_id),
});
