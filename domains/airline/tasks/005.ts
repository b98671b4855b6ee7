import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { airlineTask } from './define.js';
import { addOneBag, cardId, cardWords, choose, namedByTrip, namedCards, reservationOnTrip, tripOf, tripWords, upcoming } from './picks.js';

// A reservation that already has checked bags (so the new totals are not the bag added), named by its trip;
// whether the bag is free depends on the membership, the cabin and the passengers, read from the tools.

export default airlineTask({
  id: 'airline/005',
  title: 'One more checked bag',
  categories: ['multi-step'],
  pick({ db, random }) {
    const candidates = [...db.reservations.values()].filter(
      (r) => upcoming(db, r) && r.total_baggages >= 1 && namedByTrip(db, r) && namedCards(db.users.get(r.user_id)!).length > 0,
    );
    const reservation = choose(random, candidates, 'airline/005', 'reservation with bags of a card holder');
    const card = random.pick(namedCards(db.users.get(reservation.user_id)!));
    const trip = tripOf(reservation);
    return { user_id: reservation.user_id, ...trip, trip_words: tripWords(db, trip), card, card_words: cardWords(card) };
  },
  request: (given) =>
    `Hi, I'm ${given.user_id}. Please add one more checked bag to ${given.trip_words} and charge whatever it costs to ${given.card_words}. Yes, go ahead.`,
  answer: z.strictObject({
    reservation_id: field.id('The id of the reservation the bag was added to.'),
    total_baggages: field.count('Checked bags of the whole reservation now, free and paid.'),
    nonfree_baggages: field.count('How many of them are paid (beyond the free allowance) now.'),
    charged: field.money('What adding the bag cost, in dollars (0 when it is free).'),
  }),
  solve(tools, given) {
    const user = tools.get_user_details({ user_id: given.user_id });
    const reservation = reservationOnTrip(tools, given.user_id, given);
    return { reservation_id: reservation.reservation_id, ...addOneBag(tools, user, reservation, cardId(user, given.card)) };
  },
  targets: [
    {
      kind: 'ambiguous_doc',
      tool: 'update_reservation_baggages',
      recovery: 'send the new totals for the whole reservation (current counts plus the added bag), read with get_reservation_details first',
    },
  ],
  claims: ['total_baggages'],
});
