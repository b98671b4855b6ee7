import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { addressFields, userId } from '../fields.js';
import { User } from '../schema.js';
import { requireUser, type RetailDb } from '../db.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { RETAIL_ERRORS } from '../errors.js';

export default defineTool({
  name: 'modify_user_address',
  description:
    "Change a customer's default address (existing orders keep theirs). Explain the change and get an explicit " +
    '"yes" from the customer first. Returns the updated profile.',
  input: z.strictObject({ user_id: userId, ...addressFields }),
  output: User,
  errors: codesOf(RETAIL_ERRORS, 'user_not_found'),
  mutates: true,
  effect: { destructive: true, idempotent: true },
  example: { user_id: 'carlos_lee_2748', address1: '1 Main St', address2: '', city: 'Austin', state: 'TX', country: 'USA', zip: '78701' },
  run({ user_id, address1, address2, city, state, country, zip }, db: RetailDb) {
    requireUser(db, user_id);
    const user = db.users.edit(user_id)!;
    user.address = { address1, address2, city, country, state, zip };
    return user;
  },
});
