import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { userId } from '../fields.js';
import { User } from '../schema.js';
import { requireUser, type AirlineDb } from '../db.js';

export default defineTool({
  name: 'get_user_details',
  description:
    "A user's profile: name, address, email, date of birth, membership level (gold, silver or regular), payment " +
    'methods (credit cards; gift cards and certificates with their remaining amounts), saved passengers and the ids ' +
    'of their reservations.',
  input: z.strictObject({ user_id: userId }),
  output: User,
  mutates: false,
  run: ({ user_id }, db: AirlineDb) => requireUser(db, user_id),
});
