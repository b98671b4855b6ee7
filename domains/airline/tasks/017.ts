import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { airlineTask } from './define.js';
import { choose, dollars, paidFor } from './picks.js';

// An active reservation whose fares leave out part of what was paid (bags, insurance, changes): the
// look-alike fare total differs from the payment history's sum.

export default airlineTask({
  id: 'airline/017',
  title: 'What I paid for a reservation',
  categories: ['single-step'],
  pick({ db, random }) {
    const candidates = [...db.reservations.values()].filter((r) => {
      const fares = dollars(r.flights.map((f) => f.price * r.passengers.length));
      return r.status === null && r.payment_history.length > 0 && paidFor(r) !== fares;
    });
    const reservation = choose(random, candidates, 'airline/017', 'reservation paid beyond its fares');
    return { user_id: reservation.user_id, reservation_id: reservation.reservation_id };
  },
  request: (given) => `Hello, I'm ${given.user_id}. How much did I pay altogether for reservation ${given.reservation_id}?`,
  answer: z.strictObject({
    total_paid: field.money('What the customer paid for the reservation altogether, in dollars (refunds deducted).'),
  }),
  solve(tools, given) {
    tools.get_user_details({ user_id: given.user_id });
    return { total_paid: paidFor(tools.get_reservation_details({ reservation_id: given.reservation_id })) };
  },
  targets: [
    {
      kind: 'redundant',
      tool: 'get_reservation_details',
      recovery: 'what was paid is the sum of payment_history; ignore the look-alike fare total and the metadata',
    },
  ],
});
