import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { toolError } from '../../errors.js';
import { RETAIL_ERRORS } from '../errors.js';
import { foldForMatch } from '../../../lib/text.js';
import type { RetailDb } from '../db.js';
import { codesOf } from '../../../lib/error-catalog.js';

export default defineTool({
  name: 'find_user_id_by_email',
  description:
    "Look up a customer's user id by email address (case-insensitive). Try this first to authenticate a customer; " +
    'fall back to find_user_id_by_name_zip when the customer cannot give an email that matches.',
  input: z.strictObject({ email: z.string().describe("The customer's email, e.g. 'maya.lopez7731@example.com'.") }),
  output: z.string().describe('The user id.'),
  errors: codesOf(RETAIL_ERRORS, 'user_not_found'),
  mutates: false,
  example: { email: 'carlos.lee5468@example.com' },
  run({ email }, db: RetailDb) {
    const wanted = foldForMatch(email);
    for (const user of db.users.values()) if (foldForMatch(user.email) === wanted) return user.user_id;
    throw toolError(RETAIL_ERRORS.user_not_found, 'User not found');
  },
});
