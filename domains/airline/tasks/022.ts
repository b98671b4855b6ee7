import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { airlineTask, airlineTurn } from './define.js';
import {
  addOneBag,
  type CardRef,
  cardId,
  cardWords,
  choose,
  dollars,
  namedByTrip,
  namedCards,
  paidFor,
  reservationOnTrip,
  type Trip,
  tripOf,
  tripWords,
  upcoming,
} from './picks.js';

// A reservation named by its trip, paid beyond its fares (so the look-alike fare total is not what was paid),
// that already has bags: what was paid, then one more bag on the customer's card.

interface Given extends Trip {
  user_id: string;
  trip_words: string;
  card: CardRef;
  card_words: string;
}

export default airlineTask({
  id: 'airline/022',
  title: 'What I paid, then one more bag',
  categories: ['multi-mission', 'multi-step'],
  pick({ db, random }): Given {
    const candidates = [...db.reservations.values()].filter(
      (r) =>
        upcoming(db, r) &&
        r.total_baggages >= 1 &&
        paidFor(r) !== dollars(r.flights.map((f) => f.price * r.passengers.length)) &&
        namedByTrip(db, r) &&
        namedCards(db.users.get(r.user_id)!).length > 0,
    );
    const reservation = choose(random, candidates, 'airline/022', 'reservation with bags paid beyond its fares');
    const card = random.pick(namedCards(db.users.get(reservation.user_id)!));
    const trip = tripOf(reservation);
    return { user_id: reservation.user_id, ...trip, trip_words: tripWords(db, trip), card, card_words: cardWords(card) };
  },
  request: (given) => `Hi, I'm ${given.user_id}. How much did I pay in total for ${given.trip_words}?`,
  answer: z.strictObject({
    reservation_id: field.id('The id of the reservation of that trip.'),
    total_paid: field.money('What the customer paid for it altogether, in dollars (refunds deducted).'),
  }),
  solve(tools, given) {
    tools.get_user_details({ user_id: given.user_id });
    const reservation = reservationOnTrip(tools, given.user_id, given);
    return { reservation_id: reservation.reservation_id, total_paid: paidFor(reservation) };
  },
  follow_ups: [
    airlineTurn({
      request: (given: Given) => `Thanks. Please also add one checked bag to that reservation, charged to ${given.card_words}. Yes, go ahead.`,
      answer: z.strictObject({
        total_baggages: field.count('Checked bags of the whole reservation now, free and paid.'),
        nonfree_baggages: field.count('How many of them are paid (beyond the free allowance) now.'),
        charged: field.money('What adding the bag cost, in dollars (0 when it is free).'),
      }),
      solve(tools, given: Given) {
        const user = tools.get_user_details({ user_id: given.user_id });
        const reservation = reservationOnTrip(tools, given.user_id, given);
        return addOneBag(tools, user, reservation, cardId(user, given.card));
      },
    }),
  ],
  targets: [
    { kind: 'redundant', tool: 'get_reservation_details', recovery: 'what was paid is the sum of payment_history; ignore the look-alike fare total' },
    {
      kind: 'ambiguous_doc',
      tool: 'update_reservation_baggages',
      recovery: 'send the new totals for the whole reservation (current counts plus the added bag), read with get_reservation_details first',
    },
  ],
});
