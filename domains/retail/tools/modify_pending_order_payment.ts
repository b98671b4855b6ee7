import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { conflict, rejected } from '../../errors.js';
import { roundHalfEven } from '../../../lib/money.js';
import { orderId, paymentMethodId } from '../fields.js';
import { Order } from '../schema.js';
import { isGiftCard, isPendingLoose, requireOrder, requirePaymentMethod, requireUser, type RetailDb } from '../db.js';

export default defineTool({
  name: 'modify_pending_order_payment',
  description:
    "Pay a pending order with another of the customer's payment methods: the new method is charged the order amount " +
    'and the old one refunded. A gift card must cover the whole amount. Explain the change and get an explicit "yes" ' +
    'first. Returns the updated order.',
  input: z.strictObject({ order_id: orderId, payment_method_id: paymentMethodId }),
  output: Order,
  mutates: true,
  effect: { destructive: true, idempotent: true },
  run({ order_id, payment_method_id }, db: RetailDb) {
    const current = requireOrder(db, order_id);
    if (!isPendingLoose(current)) throw conflict('Non-pending order cannot be modified', 'order_not_pending');
    requirePaymentMethod(requireUser(db, current.user_id), payment_method_id);
    const [first, ...others] = current.payment_history;
    if (!first || others.length > 0 || first.transaction_type !== 'payment') {
      throw conflict('There should be exactly one payment for a pending order', 'payment_history_not_single');
    }
    if (first.payment_method_id === payment_method_id) {
      throw rejected('The new payment method should be different from the current one', 'same_payment_method');
    }
    const amount = first.amount;
    const user = db.users.edit(current.user_id)!;
    const newMethod = requirePaymentMethod(user, payment_method_id);
    if (isGiftCard(newMethod) && newMethod.balance < amount) {
      throw rejected('Insufficient gift card balance to pay for the order', 'insufficient_gift_card_balance');
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
