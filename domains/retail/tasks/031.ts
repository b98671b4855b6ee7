import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { NoInstance } from '../../task.js';
import { addressAnswer, addressField, orderIdField } from './answers.js';
import { retailTask, retailTurn } from './define.js';
import { customerOf, methodWords, namingItems, nameableMethods } from './picks.js';
import { authenticate, orderWith } from './solving.js';

// The default address on file, then a pending order paid with another of the customer's methods (a gift card
// where one covers it): the profile is read again, and its answer may have a new shape.

interface Given {
  name: string;
  email: string;
  product: string;
  /** How the customer names the method that paid the order. */
  paid_with: string;
  /** How the customer names the method that is to pay it. */
  pay_with: string;
}

export default retailTask({
  id: 'retail/031',
  title: 'Address on file, then pay an order another way',
  categories: ['multi-mission'],
  pick({ db, random }): Given {
    const candidates = [...db.orders.values()].flatMap((order) => {
      const user = db.users.get(order.user_id);
      const [payment, ...others] = order.payment_history;
      if (!user || order.status !== 'pending' || !payment || others.length > 0 || namingItems(db, order).length === 0) return [];
      const paid = user.payment_methods[payment.payment_method_id];
      // Another method the customer names, that can pay the whole order.
      return nameableMethods(user)
        .filter((method) => method.id !== payment.payment_method_id && (method.source !== 'gift_card' || method.balance >= payment.amount))
        .map((method) => ({ order, user, paid: paid ? methodWords(paid) : 'the current method', method }));
    });
    if (candidates.length === 0) throw new NoInstance('no pending order that another method of its customer could pay');
    // A gift card where one can pay, as customers spend them.
    const giftCards = candidates.filter(({ method }) => method.source === 'gift_card');
    const { order, paid, method, user } = random.pick(giftCards.length > 0 ? giftCards : candidates);
    return { ...customerOf(user), product: random.pick(namingItems(db, order)), paid_with: paid, pay_with: methodWords(method) };
  },
  request: (given) => `Hi, ${given.name} (${given.email}). What's the default address on my account?`,
  answer: z.strictObject({ address: addressField('The default address on file.') }),
  solve(tools, given) {
    return { address: addressAnswer(authenticate(tools, given.email).profile.address) };
  },
  follow_ups: [
    retailTurn({
      request: (given: Given) =>
        `Thanks. Please pay my pending order with the ${given.product} with ${given.pay_with} instead of ${given.paid_with}. Yes, go ahead.`,
      answer: z.strictObject({
        order_id: orderIdField('the order'),
        payment_method_id: field.id('The payment method that now pays the order.'),
        amount: field.money('The amount charged to it, in dollars.'),
      }),
      solve(tools, given: Given) {
        const { profile } = authenticate(tools, given.email);
        const order = orderWith(tools, given.email, given.product);
        const method = Object.values(profile.payment_methods).find((m) => methodWords(m) === given.pay_with)!;
        const updated = tools.modify_pending_order_payment({ order_id: order.order_id, payment_method_id: method.id });
        const paid = updated.payment_history.filter((p) => p.payment_method_id === method.id && p.transaction_type === 'payment').at(-1)!;
        return { order_id: updated.order_id, payment_method_id: method.id, amount: paid.amount };
      },
    }),
  ],
  targets: [{ kind: 'output_drift', tool: 'get_user_details', recovery: 'read the profile inside data: the answer has a new envelope' }],
});
