import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { sumMoney } from '../../../lib/money.js';
import type { Random } from '../../../lib/random.js';
import { NoInstance } from '../../task.js';
import { currentVariant, type RetailDb } from '../db.js';
import type { PaymentMethod } from '../schema.js';
import { type Customer, customerOf, methodWords, nameableMethods } from './picks.js';
import { authenticate, type RetailSolver } from './solving.js';

// What retail's checkout templates share: a customer whose cart can be checked out, the payment method they
// name, the answer and the reference checkout.

export interface CheckoutGiven extends Customer {
  /** The payment method as the customer names it ("my Visa card ending in 1234"). */
  method: string;
}

/** A customer with a cart that can be checked out, paying with a method that `fits` and that they can name. */
export function pickCheckout(db: RetailDb, random: Random, fits: (method: PaymentMethod) => boolean): CheckoutGiven {
  const candidates = [...db.users.values()].flatMap((user) => {
    const lines = db.carts.get(user.user_id)?.items ?? [];
    const items = lines.map((line) => currentVariant(db, line.product_id, line.item_id));
    if (lines.length === 0 || items.some((item) => !item?.available)) return [];
    const total = sumMoney(lines.map((line, i) => items[i]!.price * line.quantity));
    const methods = nameableMethods(user).filter((method) => fits(method) && (method.source !== 'gift_card' || method.balance >= total));
    return methods.map((method) => ({ user, method }));
  });
  if (candidates.length === 0) throw new NoInstance('no customer whose cart can be checked out with a method they can name');
  const { user, method } = random.pick(candidates);
  return { ...customerOf(user), method: methodWords(method) };
}

export const checkoutAnswer = z.strictObject({
  order_id: field.id('The id of the order placed (#W…).'),
  total: field.money('The amount charged, in dollars.'),
  payment_method_id: field.id('The payment method charged.'),
});

/** The checkout of the customer's cart with the method they named, to their default address. */
export function checkoutWith(tools: RetailSolver, given: CheckoutGiven): z.output<typeof checkoutAnswer> {
  const { user_id, profile } = authenticate(tools, given.email);
  const method = Object.values(profile.payment_methods).find((m) => methodWords(m) === given.method)!;
  const order = tools.checkout({ user_id, payment_method_id: method.id });
  const [payment] = order.payment_history;
  return { order_id: order.order_id, total: payment!.amount, payment_method_id: payment!.payment_method_id };
}
