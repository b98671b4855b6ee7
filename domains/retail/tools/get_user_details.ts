import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { userId } from '../fields.js';
import { User } from '../schema.js';
import { requireUser, type RetailDb } from '../db.js';

export default defineTool({
  name: 'get_user_details',
  description: "A customer's profile: name, default address, email, payment methods (with gift-card balances) and order ids.",
  input: z.strictObject({ user_id: userId }),
  output: User,
  mutates: false,
  run: ({ user_id }, db: RetailDb) => requireUser(db, user_id),
});
