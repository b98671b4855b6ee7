import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { airlineTask } from './define.js';
import type { Reservation, User } from '../schema.js';
import { choose, namedFlightAlone, place, reservationWithFlight, statusOn } from './picks.js';

// A customer the policy compensates (silver or gold, insured, or in business) whose flight the airline
// cancelled, named by its route and date: the flight, the passengers and the certificate come from the tools.

/** Whether the policy compensates a cancellation on this reservation. */
const compensates = (user: User, reservation: Reservation) =>
  user.membership !== 'regular' || reservation.insurance === 'yes' || reservation.cabin === 'business';

export default airlineTask({
  id: 'airline/013',
  title: 'Compensation for a cancelled flight',
  categories: ['multi-step'],
  pick({ db, random }) {
    const cancelled = [...db.reservations.values()].flatMap((reservation) =>
      reservation.status === 'cancelled'
        ? []
        : reservation.flights
            .filter((f) => statusOn(db, f.flight_number, f.date) === 'cancelled' && namedFlightAlone(db, reservation, f))
            .map((leg) => ({ reservation, leg })),
    );
    // A customer the policy compensates, where the world has one.
    const compensated = cancelled.filter(({ reservation }) => compensates(db.users.get(reservation.user_id)!, reservation));
    const { reservation, leg } = choose(random, compensated.length > 0 ? compensated : cancelled, 'airline/013', 'cancelled flight');
    return {
      user_id: reservation.user_id,
      origin: leg.origin,
      destination: leg.destination,
      date: leg.date,
      from: place(db, leg.origin),
      to: place(db, leg.destination),
    };
  },
  request: (given) =>
    `Hello, this is ${given.user_id}. I got word that my flight from ${given.from} to ${given.to} on ${given.date} was cancelled. ` +
    "That's really disruptive for all of us on the booking; I'd like compensation. Yes, please send whatever I'm entitled to.",
  answer: z.strictObject({
    flight_number: field.id('The cancelled flight (e.g. HAT274).'),
    certificate_amount: field.money('The amount of the travel certificate sent as compensation, in dollars (0 if none is due).'),
  }),
  solve(tools, given) {
    const user = tools.get_user_details({ user_id: given.user_id });
    const { reservation, flight } = reservationWithFlight(tools, given.user_id, given);
    const cancelled = tools.get_flight_status({ flight_number: flight.flight_number, date: flight.date }) === 'cancelled';
    const amount = cancelled && compensates(user, reservation) ? 100 * reservation.passengers.length : 0;
    if (amount > 0) tools.send_certificate({ user_id: given.user_id, amount });
    return { flight_number: flight.flight_number, certificate_amount: amount };
  },
  targets: [
    {
      kind: 'outage',
      tool: 'get_flight_status',
      recovery:
        "read the flight's row on the departures board of its origin (and the arrivals board of its destination once it left) with get_flight_board, and say " +
        'the status comes from the airport',
      via: ['get_flight_board'],
    },
  ],
  claims: ['certificate_amount'],
});
