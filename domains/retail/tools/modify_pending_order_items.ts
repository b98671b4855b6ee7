import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { toolError } from '../../errors.js';
import { RETAIL_ERRORS } from '../errors.js';
import { roundHalfEven } from '../../../lib/money.js';
import { itemIds, newItemIds, orderId, paymentMethodId } from '../fields.js';
import { Order } from '../schema.js';
import { firstMissing, isGiftCard, pairReplacements, priceDifference, requireOrder, requirePaymentMethod, requireUser, type RetailDb } from '../db.js';
import { codesOf } from '../../../lib/error-catalog.js';

export default defineTool({
  name: 'modify_pending_order_items',
  description:
    'Swap items of an order whose status is exactly "pending" for other variants of the same products. Possible once ' +
    'per order: afterwards its status is "pending (item modified)". The price difference is charged to, or refunded ' +
    'on, the given payment method (a gift card must cover a charge). Collect every change first, explain them, and ' +
    'get an explicit "yes" before calling. Returns the updated order.',
  input: z.strictObject({
    order_id: orderId,
    item_ids: itemIds,
    new_item_ids: newItemIds,
    payment_method_id: paymentMethodId.describe('Payment method that pays, or receives the refund of, the price difference.'),
  }),
  output: Order,
  errors: codesOf(
    RETAIL_ERRORS,
    'user_not_found',
    'order_not_found',
    'product_not_found',
    'variant_not_found',
    'item_not_found',
    'payment_method_not_found',
    'order_not_pending',
    'item_unavailable',
    'same_item',
    'item_count_mismatch',
    'insufficient_gift_card_balance',
  ),
  mutates: true,
  effect: { destructive: true, idempotent: true },
  example: { order_id: '#W5124601', item_ids: ['1691776553'], new_item_ids: ['1340432322'], payment_method_id: 'paypal_5099958' },
  run({ order_id, item_ids, new_item_ids, payment_method_id }, db: RetailDb, ctx) {
    const current = requireOrder(db, order_id);
    if (current.status !== 'pending') throw toolError(RETAIL_ERRORS.order_not_pending, 'Non-pending order cannot be modified');
    const missing = firstMissing(
      item_ids,
      current.items.map((item) => item.item_id),
    );
    if (missing !== undefined) throw toolError(RETAIL_ERRORS.item_not_found, `${missing} not found`);
    if (item_ids.length !== new_item_ids.length) {
      throw toolError(RETAIL_ERRORS.item_count_mismatch, 'The number of items to be exchanged should match');
    }
    const replacements = pairReplacements(db, current, item_ids, new_item_ids, { rejectSameId: true });
    // Unrounded, as tau2-bench stores it in the payment entry (only the gift card's balance is rounded).
    const difference = priceDifference(current, replacements);

    requirePaymentMethod(requireUser(db, current.user_id), payment_method_id);
    const user = db.users.edit(current.user_id)!;
    const method = requirePaymentMethod(user, payment_method_id);
    if (isGiftCard(method) && method.balance < difference) {
      throw toolError(RETAIL_ERRORS.insufficient_gift_card_balance, 'Insufficient gift card balance to pay for the new item');
    }

    const order = db.orders.edit(order_id)!;
    order.payment_history.push({
      transaction_type: difference > 0 ? 'payment' : 'refund',
      amount: Math.abs(difference),
      payment_method_id,
    });
    if (isGiftCard(method)) method.balance = roundHalfEven(method.balance - difference, 2);
    // TAU2_COMPAT=strict reproduces tau2-bench's bug: every item gets the price and options of the last new variant.
    const last = replacements.at(-1)!.variant;
    for (const { line, variant } of replacements) {
      const item = order.items[line]!;
      const priced = ctx.compat === 'strict' ? last : variant;
      item.item_id = variant.item_id;
      item.price = priced.price;
      item.options = { ...priced.options };
    }
    order.status = 'pending (item modified)';
    return order;
  },
});
