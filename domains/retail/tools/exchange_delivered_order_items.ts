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
  name: 'exchange_delivered_order_items',
  description:
    'Request an exchange of items of a delivered order for other variants of the same products. Possible once per ' +
    'order (a return or an exchange, not both). The price difference is settled on the given payment method when the ' +
    'exchange completes; a gift card must cover it. Collect every item first, explain, and get an explicit "yes" ' +
    'before calling. Returns the order, now "exchange requested".',
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
    'order_not_delivered',
    'item_unavailable',
    'same_item',
    'item_count_mismatch',
    'insufficient_gift_card_balance',
  ),
  mutates: true,
  effect: { destructive: true, idempotent: true },
  example: { order_id: '#W3116948', item_ids: ['9367953016'], new_item_ids: ['1334665828'], payment_method_id: 'credit_card_0625710' },
  run({ order_id, item_ids, new_item_ids, payment_method_id }, db: RetailDb) {
    const current = requireOrder(db, order_id);
    if (current.status !== 'delivered') throw toolError(RETAIL_ERRORS.order_not_delivered, 'Non-delivered order cannot be exchanged');
    const missing = firstMissing(
      item_ids,
      current.items.map((item) => item.item_id),
    );
    if (missing !== undefined) throw toolError(RETAIL_ERRORS.item_not_found, `Number of ${missing} not found.`);
    if (item_ids.length !== new_item_ids.length) {
      throw toolError(RETAIL_ERRORS.item_count_mismatch, 'The number of items to be exchanged should match.');
    }
    const replacements = pairReplacements(db, current, item_ids, new_item_ids, { rejectSameId: false });
    const difference = roundHalfEven(priceDifference(current, replacements), 2);
    const method = requirePaymentMethod(requireUser(db, current.user_id), payment_method_id);
    if (isGiftCard(method) && method.balance < difference) {
      throw toolError(RETAIL_ERRORS.insufficient_gift_card_balance, 'Insufficient gift card balance to pay for the price difference');
    }

    const order = db.orders.edit(order_id)!;
    order.status = 'exchange requested';
    order.exchange_items = [...item_ids].sort();
    order.exchange_new_items = [...new_item_ids].sort();
    order.exchange_payment_method_id = payment_method_id;
    order.exchange_price_difference = difference;
    return order;
  },
});
