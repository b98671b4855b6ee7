import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { conflict, notFound, rejected } from '../../errors.js';
import { roundHalfEven } from '../../../lib/money.js';
import { itemIds, newItemIds, orderId, paymentMethodId } from '../fields.js';
import { Order } from '../schema.js';
import { firstMissing, isGiftCard, pairReplacements, priceDifference, requireOrder, requirePaymentMethod, requireUser, type RetailDb } from '../db.js';

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
  mutates: true,
  effect: { destructive: true, idempotent: true },
  run({ order_id, item_ids, new_item_ids, payment_method_id }, db: RetailDb, ctx) {
    const current = requireOrder(db, order_id);
    if (current.status !== 'pending') throw conflict('Non-pending order cannot be modified', 'order_not_pending');
    const missing = firstMissing(
      item_ids,
      current.items.map((item) => item.item_id),
    );
    if (missing !== undefined) throw notFound(`${missing} not found`, 'item_not_found');
    if (item_ids.length !== new_item_ids.length) {
      throw rejected('The number of items to be exchanged should match', 'item_count_mismatch');
    }
    const replacements = pairReplacements(db, current, item_ids, new_item_ids, { rejectSameId: true });
    // Unrounded, as tau2-bench stores it in the payment entry (only the gift card's balance is rounded).
    const difference = priceDifference(current, replacements);

    requirePaymentMethod(requireUser(db, current.user_id), payment_method_id);
    const user = db.users.edit(current.user_id)!;
    const method = requirePaymentMethod(user, payment_method_id);
    if (isGiftCard(method) && method.balance < difference) {
      throw rejected('Insufficient gift card balance to pay for the new item', 'insufficient_gift_card_balance');
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
