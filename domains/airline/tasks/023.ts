import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { FLIGHT_STATUSES } from '../schema.js';
import { airlineTask, airlineTurn } from './define.js';
import {
  anyFlown,
  CANCELLATION_OUTCOMES,
  cancellationGrounds,
  choose,
  type Leg,
  namedFlightAlone,
  place,
  reservationWithFlight,
  statusOn,
  steadyOnBoard,
  TODAY,
} from './picks.js';

// A flight the airline cancelled, named by its route and date, in a reservation none of whose flights has
// left: the cancellation is a ground to cancel the whole reservation, refunded to the methods that paid. (A
// world without one gets a flight that still flies, and the policy decides the cancellation.)

interface Given extends Leg {
  user_id: string;
  from: string;
  to: string;
}

export default airlineTask({
  id: 'airline/023',
  title: 'Is my flight cancelled? Then cancel the trip',
  categories: ['multi-mission', 'multi-step'],
  pick({ db, random }): Given {
    const steady = [...db.reservations.values()].filter(
      (r) =>
        r.status === null && r.payment_history.length > 0 && r.flights.every((f) => f.date >= TODAY && steadyOnBoard(db.flights.get(f.flight_number)!, f.date)),
    );
    const named = (wanted: string) =>
      steady.flatMap((reservation) =>
        reservation.flights
          .filter((f) => statusOn(db, f.flight_number, f.date) === wanted && namedFlightAlone(db, reservation, f))
          .map((leg) => ({ user_id: reservation.user_id, leg })),
      );
    // A world without such a cancellation gets a flight that still flies: the customer heard wrong.
    const cancelled = named('cancelled');
    const { user_id, leg } = choose(random, cancelled.length > 0 ? cancelled : named('available'), 'airline/023', 'reservation still to fly');
    return { user_id, origin: leg.origin, destination: leg.destination, date: leg.date, from: place(db, leg.origin), to: place(db, leg.destination) };
  },
  request: (given) => `Hello, this is ${given.user_id}. Is my flight from ${given.from} to ${given.to} on ${given.date} really cancelled?`,
  answer: z.strictObject({
    flight_number: field.id('The flight asked about (e.g. HAT274).'),
    status: field.choice(FLIGHT_STATUSES, "The airline's status of the flight on that date."),
  }),
  solve(tools, given) {
    const { flight } = reservationWithFlight(tools, given.user_id, given);
    return { flight_number: flight.flight_number, status: tools.get_flight_status({ flight_number: flight.flight_number, date: flight.date }) };
  },
  follow_ups: [
    airlineTurn({
      request: () => 'In that case please cancel the whole reservation it is on and refund us. Yes, I confirm.',
      answer: z.strictObject({
        reservation_id: field.id('The id of the reservation it is on.'),
        outcome: field.choice(
          CANCELLATION_OUTCOMES,
          "'cancelled' if it was cancelled; 'no_policy_ground' if no ground of the cancellation policy applies; 'segment_flown' if a segment was " +
            'already flown.',
        ),
        refunds: field.set(
          z.strictObject({ payment_id: field.id('The payment method refunded.'), amount: field.money('The amount refunded to it, in dollars.') }),
          'Every refund of the cancellation (none if it was not cancelled).',
        ),
      }),
      solve(tools, given: Given) {
        const { reservation } = reservationWithFlight(tools, given.user_id, given);
        const statuses = reservation.flights.map(({ flight_number, date }) => tools.get_flight_status({ flight_number, date }));
        if (anyFlown(reservation, statuses)) return { reservation_id: reservation.reservation_id, outcome: 'segment_flown' as const, refunds: [] };
        if (cancellationGrounds(reservation, statuses, false).length === 0) {
          return { reservation_id: reservation.reservation_id, outcome: 'no_policy_ground' as const, refunds: [] };
        }
        const cancelled = tools.cancel_reservation({ reservation_id: reservation.reservation_id });
        const refunds = cancelled.payment_history.filter((p) => p.amount < 0).map((p) => ({ payment_id: p.payment_id, amount: -p.amount }));
        return { reservation_id: cancelled.reservation_id, outcome: 'cancelled' as const, refunds };
      },
    }),
  ],
  targets: [
    {
      kind: 'adhoc_rule',
      tool: 'get_flight_status',
      recovery: "send the flight number without the carrier code, as the tool's description says (e.g. '055' for HAT055)",
    },
    {
      kind: 'outage',
      tool: 'get_flight_status',
      recovery:
        "read the flight's row on the departures board of its origin (and the arrivals board of its destination once it left) with get_flight_board, and say " +
        'the status comes from the airport',
      via: ['get_flight_board'],
    },
  ],
});
