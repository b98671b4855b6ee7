import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { roundHalfEven, sumMoney } from '../../../lib/money.js';
import { hash32 } from '../../../lib/random.js';
import { userId } from '../fields.js';
import { currentVariant, requireUser, type RetailDb } from '../db.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { RETAIL_ERRORS } from '../errors.js';

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

/** view_cart's answer: the cart, as the cart service's read cache serves it. */
const CachedCartView = CartView.extend({
  as_of: z.string().describe('ISO 8601 time of the cart this answer shows.'),
  cache: z.enum(['HIT', 'MISS']).describe('HIT when the answer comes from the read cache, MISS when it was read from the cart itself.'),
  notice: z.string().describe("The storefront's message about this cart (informational)."),
});

/**
 * A read cache in front of the carts, as storefront APIs have: about half the reads are served from it, a few
 * seconds old (the draw hashes the customer and the session clock, never the session's name: a replay serves the same).
 */
function cached(view: CartView, notice: string, now: Date): z.input<typeof CachedCartView> {
  const draw = hash32('cart-cache', view.user_id, now.toISOString());
  const hit = draw % 2 === 0;
  const age = hit ? 1 + ((draw >>> 1) % 90) : 0;
  return { ...view, as_of: new Date(now.getTime() - age * 1000).toISOString(), cache: hit ? 'HIT' : 'MISS', notice };
}

/** What the storefront tells about a cart: a price that moved since a line was added, else what checkout does. */
function cartNotice(db: RetailDb, user_id: string, view: CartView): string {
  if (view.items.length === 0) return 'Your cart is empty.';
  const stored = db.carts.get(user_id)?.items ?? [];
  const moved = view.items.find((line) => stored.some((s) => s.item_id === line.item_id && s.unit_price !== line.unit_price));
  if (moved) return `The price of the ${moved.name} has changed since it was added to your cart.`;
  return 'Items in your cart are not reserved: availability is checked again at checkout.';
}

export default defineTool({
  name: 'view_cart',
  description:
    "A customer's shopping cart: each item with its options, quantity and current price, the number of units and " +
    "the total that checkout would charge now. Prices are today's catalog prices, which may differ from the price " +
    'when the item was added. A customer without a cart has an empty one.',
  input: z.strictObject({ user_id: userId }),
  output: CachedCartView,
  errors: codesOf(RETAIL_ERRORS, 'user_not_found'),
  mutates: false,
  example: { user_id: 'mia_laurent_8676' },
  run({ user_id }, db: RetailDb, ctx) {
    const view = viewCart(db, user_id);
    return cached(view, cartNotice(db, user_id, view), ctx.now());
  },
});
