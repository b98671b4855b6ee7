import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { toolError } from '../../errors.js';
import { RETAIL_ERRORS } from '../errors.js';
import { roundHalfEven } from '../../../lib/money.js';
import { orderId, paymentMethodId } from '../fields.js';
import { Order } from '../schema.js';
import { isGiftCard, isPendingLoose, requireOrder, requirePaymentMethod, requireUser, type RetailDb } from '../db.js';
import { codesOf } from '../../../lib/error-catalog.js';

export default defineTool({
  name: 'modify_pending_order_payment',
  description:
    "Pay a pending order with another of the customer's payment methods: the new method is charged the order amount " +
    'and the old one refunded. A gift card must cover the whole amount. Explain the change and get an explicit "yes" ' +
    'first. Returns the updated order.',
  input: z.strictObject({ order_id: orderId, payment_method_id: paymentMethodId }),
  output: Order,
  errors: codesOf(
    RETAIL_ERRORS,
    'user_not_found',
    'order_not_found',
    'payment_method_not_found',
    'order_not_pending',
    'payment_history_not_single',
    'same_payment_method',
    'insufficient_gift_card_balance',
  ),
  mutates: true,
  effect: { destructive: true, idempotent: true },
  example: { order_id: '#W5124601', payment_method_id: 'paypal_5099958' },
  run({ order_id, payment_method_id }, db: RetailDb) {
    const current = requireOrder(db, order_id);
    if (!isPendingLoose(current)) throw toolError(RETAIL_ERRORS.order_not_pending, 'Non-pending order cannot be modified');
    requirePaymentMethod(requireUser(db, current.user_id), payment_method_id);
    const [first, ...others] = current.payment_history;
    if (!first || others.length > 0 || first.transaction_type !== 'payment') {
      throw toolError(RETAIL_ERRORS.payment_history_not_single, 'There should be exactly one payment for a pending order');
    }
    if (first.payment_method_id === payment_method_id) {
      throw toolError(RETAIL_ERRORS.same_payment_method, 'The new payment method should be different from the current one');
    }
    const amount = first.amount;
    const user = db.users.edit(current.user_id)!;
    const newMethod = requirePaymentMethod(user, payment_method_id);
    if (isGiftCard(newMethod) && newMethod.balance < amount) {
      throw toolError(RETAIL_ERRORS.insufficient_gift_card_balance, 'Insufficient gift card balance to pay for the order');
    }
    const order = db.orders.edit(order_id)!;
    order.payment_history.push(
      { transaction_type: 'payment', amount, payment_method_id },
      { transaction_type: 'refund', amount, payment_method_id: first.payment_method_id },
    );
    if (isGiftCard(newMethod)) newMethod.balance = roundHalfEven(newMethod.balance - amount, 2);
    const oldMethod = requirePaymentMethod(user, first.payment_method_id);
    if (isGiftCard(oldMethod)) oldMethod.balance = roundHalfEven(oldMethod.balance + amount, 2);
    return order;
  },
});
