import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { toolError } from '../../errors.js';
import { RETAIL_ERRORS } from '../errors.js';
import { roundHalfEven } from '../../../lib/money.js';
import { orderId } from '../fields.js';
import { CANCEL_REASONS, Order } from '../schema.js';
import { isGiftCard, requireOrder, requirePaymentMethod, requireUser, type RetailDb } from '../db.js';
import { codesOf } from '../../../lib/error-catalog.js';

export default defineTool({
  name: 'cancel_pending_order',
  description:
    'Cancel an order whose status is exactly "pending". Every payment is refunded: at once to a gift card, in 5–7 ' +
    'business days to other methods. Explain the cancellation and get an explicit "yes" from the customer first. ' +
    'Returns the cancelled order.',
  input: z.strictObject({
    order_id: orderId,
    reason: z.string().describe(`Why the customer cancels: one of ${CANCEL_REASONS.map((r) => `'${r}'`).join(' or ')}.`),
  }),
  output: Order,
  errors: codesOf(RETAIL_ERRORS, 'user_not_found', 'order_not_found', 'payment_method_not_found', 'order_not_pending', 'invalid_reason'),
  mutates: true,
  effect: { destructive: true, idempotent: true },
  example: { order_id: '#W5124601', reason: 'no longer needed' },
  run({ order_id, reason }, db: RetailDb) {
    const current = requireOrder(db, order_id);
    if (current.status !== 'pending') throw toolError(RETAIL_ERRORS.order_not_pending, 'Non-pending order cannot be cancelled');
    if (!(CANCEL_REASONS as readonly string[]).includes(reason))
      throw toolError(RETAIL_ERRORS.invalid_reason, 'Invalid reason', { extra: { field: 'reason' } });

    const user = db.users.edit(current.user_id) ?? requireUser(db, current.user_id);
    const order = db.orders.edit(order_id)!;
    const refunds = order.payment_history.map((payment) => ({
      transaction_type: 'refund' as const,
      amount: payment.amount,
      payment_method_id: payment.payment_method_id,
    }));
    for (const refund of refunds) {
      const method = requirePaymentMethod(user, refund.payment_method_id);
      if (isGiftCard(method)) method.balance = roundHalfEven(method.balance + refund.amount, 2);
    }
    order.status = 'cancelled';
    order.cancel_reason = reason as (typeof CANCEL_REASONS)[number];
    order.payment_history.push(...refunds);
    return order;
  },
});
