import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { toolError } from '../../errors.js';
import { RETAIL_ERRORS } from '../errors.js';
import { foldForMatch } from '../../../lib/text.js';
import type { RetailDb } from '../db.js';
import { codesOf } from '../../../lib/error-catalog.js';

export default defineTool({
  name: 'find_user_id_by_name_zip',
  description:
    "Look up a customer's user id by first name, last name and zip code. Names match regardless of case and accents; " +
    'the zip must match exactly. Use it only when the email lookup is not possible.',
  input: z.strictObject({
    first_name: z.string().describe("First name, e.g. 'Maya'."),
    last_name: z.string().describe("Last name, e.g. 'Lopez'."),
    zip: z.string().describe("Zip code of the customer's default address, e.g. '60614'."),
  }),
  output: z.string().describe('The user id.'),
  errors: codesOf(RETAIL_ERRORS, 'user_not_found'),
  mutates: false,
  example: { first_name: 'Carlos', last_name: 'Lee', zip: '78246' },
  run({ first_name, last_name, zip }, db: RetailDb) {
    const first = foldForMatch(first_name);
    const last = foldForMatch(last_name);
    for (const user of db.users.values()) {
      if (foldForMatch(user.name.first_name) === first && foldForMatch(user.name.last_name) === last && user.address.zip === zip) {
        return user.user_id;
      }
    }
    throw toolError(RETAIL_ERRORS.user_not_found, 'User not found');
  },
});
