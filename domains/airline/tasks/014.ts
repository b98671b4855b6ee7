import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { airlineTask } from './define.js';
import { choose, paidFor } from './picks.js';

// Two active reservations of one customer, by their booking codes: what was paid for each is the sum of its
// payment history, which the reservation reads may give in cents.

export default airlineTask({
  id: 'airline/014',
  title: 'What I paid for two reservations',
  categories: ['parallel', 'single-step'],
  pick({ db, random }) {
    const active = (id: string) => {
      const reservation = db.reservations.get(id);
      return reservation !== undefined && reservation.status === null && reservation.payment_history.length > 0;
    };
    const users = [...db.users.values()].filter((u) => u.reservations.filter(active).length >= 2);
    const user = choose(random, users, 'airline/014', 'customer with two active reservations');
    return { user_id: user.user_id, reservation_ids: random.sample(user.reservations.filter(active), 2) };
  },
  request: (given) =>
    `Hi, ${given.user_id} here. How much did I pay in total for each of my reservations ${given.reservation_ids[0]} and ${given.reservation_ids[1]}?`,
  answer: z.strictObject({
    totals: field.set(
      z.strictObject({
        reservation_id: field.id('The reservation.'),
        total_paid: field.money('What the customer paid for it altogether, in dollars (refunds deducted).'),
      }),
      'What was paid for each of the two reservations.',
    ),
  }),
  solve(tools, given) {
    tools.get_user_details({ user_id: given.user_id });
    return {
      totals: given.reservation_ids.map((reservation_id) => ({ reservation_id, total_paid: paidFor(tools.get_reservation_details({ reservation_id })) })),
    };
  },
  targets: [
    {
      kind: 'output_drift',
      tool: 'get_reservation_details',
      recovery: 'read the amounts in the shape the answer now has: amount_cents in cents, as amount_unit says',
    },
  ],
});
