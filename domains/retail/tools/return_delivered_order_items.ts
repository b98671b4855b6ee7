import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { toolError } from '../../errors.js';
import { RETAIL_ERRORS } from '../errors.js';
import { itemIds, orderId, paymentMethodId } from '../fields.js';
import { Order } from '../schema.js';
import { firstMissing, isGiftCard, requireOrder, requirePaymentMethod, requireUser, type RetailDb } from '../db.js';
import { codesOf } from '../../../lib/error-catalog.js';

export default defineTool({
  name: 'return_delivered_order_items',
  description:
    'Request a return of items of a delivered order. The refund goes to the original payment method or to a gift ' +
    'card of the customer. Possible once per order (a return or an exchange, not both). Explain and get an explicit ' +
    '"yes" before calling. Returns the order, now "return requested"; the customer receives return instructions by email.',
  input: z.strictObject({
    order_id: orderId,
    item_ids: itemIds.describe('Item ids to return; an id appears as many times as units are returned.'),
    payment_method_id: paymentMethodId.describe('Where the refund goes: the original payment method or a gift card.'),
  }),
  output: Order,
  errors: codesOf(
    RETAIL_ERRORS,
    'user_not_found',
    'order_not_found',
    'item_not_found',
    'payment_method_not_found',
    'order_not_delivered',
    'not_original_payment_method',
  ),
  mutates: true,
  effect: { destructive: true, idempotent: true },
  example: { order_id: '#W8075079', item_ids: ['6934479342'], payment_method_id: 'gift_card_2578620' },
  run({ order_id, item_ids, payment_method_id }, db: RetailDb) {
    const current = requireOrder(db, order_id);
    if (current.status !== 'delivered') throw toolError(RETAIL_ERRORS.order_not_delivered, 'Non-delivered order cannot be returned');
    const method = requirePaymentMethod(requireUser(db, current.user_id), payment_method_id);
    if (!isGiftCard(method) && payment_method_id !== current.payment_history[0]?.payment_method_id) {
      throw toolError(RETAIL_ERRORS.not_original_payment_method, 'Payment method should be the original payment method');
    }
    if (
      firstMissing(
        item_ids,
        current.items.map((item) => item.item_id),
      ) !== undefined
    ) {
      throw toolError(RETAIL_ERRORS.item_not_found, 'Some item not found');
    }
    const order = db.orders.edit(order_id)!;
    order.status = 'return requested';
    order.return_items = [...item_ids].sort();
    order.return_payment_method_id = payment_method_id;
    return order;
  },
});
