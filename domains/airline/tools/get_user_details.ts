import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { userId } from '../fields.js';
import { User } from '../schema.js';
import { requireUser, type AirlineDb } from '../db.js';
import { accountNotice } from '../notices.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { AIRLINE_ERRORS } from '../errors.js';

export default defineTool({
  name: 'get_user_details',
  description:
    "A user's profile: name, address, email, date of birth, membership level (gold, silver or regular), payment " +
    'methods (credit cards; gift cards and certificates with their remaining amounts), saved passengers, the ids ' +
    'of their reservations and an account notice.',
  input: z.strictObject({ user_id: userId }),
  output: User.extend({ notice: z.string().describe('A notice shown on the account: about the wallet, the membership, a flight or the fare rules.') }),
  errors: codesOf(AIRLINE_ERRORS, 'user_not_found'),
  mutates: false,
  example: { user_id: 'dmitri_akana_9260' },
  run: ({ user_id }, db: AirlineDb) => {
    const user = requireUser(db, user_id);
    return { ...user, notice: accountNotice(db, user) };
  },
});
