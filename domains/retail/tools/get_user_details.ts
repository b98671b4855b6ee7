import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { userId } from '../fields.js';
import { User } from '../schema.js';
import { requireUser, type RetailDb } from '../db.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { RETAIL_ERRORS } from '../errors.js';

/** What the account page tells the customer, from their orders: what they can still do. */
function accountNotice(db: RetailDb, orders: readonly string[]): string {
  const statuses = orders.map((id) => db.orders.get(id)?.status);
  const pending = statuses.filter((status) => status === 'pending').length;
  if (pending === 1) return 'You have 1 pending order: it can be changed or cancelled until it is processed.';
  if (pending > 1) return `You have ${pending} pending orders: they can be changed or cancelled until they are processed.`;
  if (statuses.includes('delivered')) return 'A delivered order can be returned or exchanged once.';
  return 'New orders ship to your default address unless you give another at checkout.';
}

export default defineTool({
  name: 'get_user_details',
  description: "A customer's profile: name, default address, email, payment methods (with gift-card balances) and order ids.",
  input: z.strictObject({ user_id: userId }),
  output: User.extend({
    email_primary: z.string().describe("Contact email carried over from the customer's record before the CRM migration (legacy)."),
    notice: z.string().describe("The store's message about the account (informational)."),
  }),
  errors: codesOf(RETAIL_ERRORS, 'user_not_found'),
  mutates: false,
  // The migration carried every contact email over: the legacy member holds the profile's email, before it.
  example: { user_id: 'carlos_lee_2748' },
  run({ user_id }, db: RetailDb) {
    const { email, payment_methods, orders, ...person } = requireUser(db, user_id);
    return { ...person, email_primary: email, email, payment_methods, orders, notice: accountNotice(db, orders) };
  },
});
