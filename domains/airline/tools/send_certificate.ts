import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { toolError } from '../../errors.js';
import { AIRLINE_ERRORS } from '../errors.js';
import { hasOwn } from '../../../lib/own.js';
import { userId } from '../fields.js';
import { NEW_CERTIFICATE_IDS, requireUser, type AirlineDb } from '../db.js';
import { codesOf } from '../../../lib/error-catalog.js';

export default defineTool({
  name: 'send_certificate',
  description:
    "Add a travel certificate (a voucher for future bookings) to a user's payment methods, as compensation. Only when " +
    'the policy allows it, for the amount it sets, after the customer asked for compensation and confirmed. ' +
    'Returns a sentence naming the new certificate.',
  input: z.strictObject({
    user_id: userId,
    amount: z.number().int().min(1).describe('Value of the certificate in whole dollars.'),
  }),
  output: z.string().describe('Confirmation naming the certificate id, the user and the amount.'),
  errors: codesOf(AIRLINE_ERRORS, 'user_not_found', 'too_many_certificates'),
  mutates: true,
  effect: { destructive: false, idempotent: false },
  example: { user_id: 'dmitri_akana_9260', amount: 50 },
  run({ user_id, amount }, db: AirlineDb) {
    const found = requireUser(db, user_id);
    const id = NEW_CERTIFICATE_IDS.find((candidate) => !hasOwn(found.payment_methods, candidate));
    if (id === undefined) throw toolError(AIRLINE_ERRORS.too_many_certificates, 'Too many certificates');
    const user = db.users.edit(found.user_id)!;
    user.payment_methods[id] = { source: 'certificate', id, amount };
    return `Certificate ${id} added to user ${found.user_id} with amount ${amount}.`;
  },
});
