import { z } from 'zod';
import { addressAnswer, addressField } from './answers.js';
import { retailTask } from './define.js';
import { addressWords, customerOf, newAddress } from './picks.js';
import { authenticate } from './solving.js';

// The default address changes; the customer wants to hear it changed from what to what.

export default retailTask({
  id: 'retail/007',
  title: 'Change the default address',
  categories: ['single-step'],
  pick({ db, random }) {
    const user = random.pick([...db.users.values()]);
    return { ...customerOf(user), address: newAddress(random) };
  },
  request: (given) =>
    `Hello, ${given.name} here (${given.email}). Please change my default address to ${addressWords(given.address)}. Yes, I confirm. Tell me which address ` +
    `it replaces, so I know it's the right account.`,
  answer: z.strictObject({
    previous_address: addressField('The default address on file before the change.'),
    address: addressField('The default address on file now.'),
  }),
  solve(tools, given) {
    const { user_id, profile } = authenticate(tools, given.email);
    const updated = tools.modify_user_address({ user_id, ...given.address });
    return { previous_address: addressAnswer(profile.address), address: addressAnswer(updated.address) };
  },
  targets: [
    {
      kind: 'adhoc_rule',
      tool: 'modify_user_address',
      recovery: "send the country as an ISO 3166-1 alpha-2 code ('US'), as the parameter's description says",
    },
  ],
  claims: ['address'],
});
