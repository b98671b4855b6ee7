import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { toolError } from '../../errors.js';
import { RETAIL_ERRORS } from '../errors.js';
import { roundHalfEven } from '../../../lib/money.js';
import { hash32 } from '../../../lib/random.js';
import { addressFields, paymentMethodId, userId } from '../fields.js';
import { NO_ORDER_EXTRAS, Order, type Cart, type OrderItem } from '../schema.js';
import { currentVariant, isGiftCard, requirePaymentMethod, requireUser, type RetailDb } from '../db.js';
import { viewCart } from './view_cart.js';
import { codesOf } from '../../../lib/error-catalog.js';

export default defineTool({
  name: 'checkout',
  description:
    'Turn a customer\'s whole cart into a new order with status "pending", at current prices, paid in full with ' +
    'one of their payment methods (a gift card must cover the total) and shipped to their default address unless ' +
    'another address is given. Every item must still be available. The cart is emptied. Tell the customer the ' +
    'items, total, payment method and address, and get an explicit "yes" first. Returns the new order.',
  input: z.strictObject({
    user_id: userId,
    payment_method_id: paymentMethodId.describe('Payment method that pays the whole order.'),
    address: z.strictObject(addressFields).optional().describe("Shipping address, all six fields. Omit it to ship to the customer's default address."),
  }),
  output: Order,
  errors: codesOf(RETAIL_ERRORS, 'user_not_found', 'payment_method_not_found', 'cart_empty', 'item_unavailable', 'insufficient_gift_card_balance'),
  mutates: true,
  effect: { destructive: true, idempotent: true },
  example: { user_id: 'mia_laurent_8676', payment_method_id: 'credit_card_6873458' },
  run({ user_id, payment_method_id, address }, db: RetailDb) {
    const profile = requireUser(db, user_id);
    const cart = db.carts.get(user_id);
    if (!cart || cart.items.length === 0) throw toolError(RETAIL_ERRORS.cart_empty, 'Cart is empty');
    for (const line of cart.items) {
      if (!currentVariant(db, line.product_id, line.item_id)?.available) {
        throw toolError(RETAIL_ERRORS.item_unavailable, `Item ${line.item_id} is no longer available; remove it from the cart`, { status: 409 });
      }
    }
    requirePaymentMethod(profile, payment_method_id);
    const view = viewCart(db, user_id);
    const total = view.total;

    const user = db.users.edit(user_id)!;
    const method = requirePaymentMethod(user, payment_method_id);
    if (isGiftCard(method)) {
      if (method.balance < total) {
        throw toolError(RETAIL_ERRORS.insufficient_gift_card_balance, 'Insufficient gift card balance to pay for the order');
      }
      method.balance = roundHalfEven(method.balance - total, 2);
    }

    // One entry per unit, as tau2-bench orders list them.
    const items: OrderItem[] = view.items.flatMap((line) =>
      Array.from({ length: line.quantity }, () => ({
        name: line.name,
        product_id: line.product_id,
        item_id: line.item_id,
        price: line.unit_price,
        options: { ...line.options },
      })),
    );
    const shipTo = address ?? profile.address;
    const order_id = newOrderId(db, user_id, profile.orders.length, cart);
    const order: Order = {
      order_id,
      user_id,
      address: {
        address1: shipTo.address1,
        address2: shipTo.address2,
        city: shipTo.city,
        country: shipTo.country,
        state: shipTo.state,
        zip: shipTo.zip,
      },
      items,
      status: 'pending',
      fulfillments: [],
      payment_history: [{ transaction_type: 'payment', amount: total, payment_method_id }],
      ...NO_ORDER_EXTRAS,
    };
    db.orders.put(order_id, order);
    user.orders.push(order_id);
    db.carts.remove(user_id);
    return order;
  },
});

/**
 * '#W' and 7 digits (never starting with 0), decided by the user, their order count and the cart,
 * then the next free number when taken: the same session replays to the same ids.
 */
function newOrderId(db: RetailDb, userId: string, orderCount: number, cart: Cart): string {
  const content = cart.items.map((line) => `${line.item_id}x${line.quantity}`).join(',');
  let n = hash32(userId, orderCount, content) % 9_000_000;
  for (;;) {
    const id = `#W${1_000_000 + n}`;
    if (!db.orders.has(id)) return id;
    n = (n + 1) % 9_000_000;
  }
}
