import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { airlineTask } from './define.js';
import { addOneBag, cardId, cardWords, choose, namedByTrip, namedCards, reservationOnTrip, tripOf, tripWords, upcoming } from './picks.js';

// A reservation without insurance, named by its trip: the bag can be added (its counts and price read from
// the tools), the insurance cannot (the policy offers it at booking only).

export default airlineTask({
  id: 'airline/010',
  title: 'Add a bag, and insurance after booking',
  categories: ['partial', 'multi-step'],
  pick({ db, random }) {
    const candidates = [...db.reservations.values()].filter(
      (r) => upcoming(db, r) && r.insurance === 'no' && namedByTrip(db, r) && namedCards(db.users.get(r.user_id)!).length > 0,
    );
    const reservation = choose(random, candidates, 'airline/010', 'uninsured reservation of a card holder');
    const card = random.pick(namedCards(db.users.get(reservation.user_id)!));
    const trip = tripOf(reservation);
    return { user_id: reservation.user_id, ...trip, trip_words: tripWords(db, trip), card, card_words: cardWords(card) };
  },
  request: (given) =>
    `Hi, I'm ${given.user_id}. For ${given.trip_words}, please add one checked bag (charge ${given.card_words}) and also add travel insurance to the trip. ` +
    `Yes to both.`,
  answer: z.strictObject({
    reservation_id: field.id('The id of the reservation.'),
    total_baggages: field.count('Checked bags of the whole reservation now, free and paid.'),
    nonfree_baggages: field.count('How many of them are paid (beyond the free allowance) now.'),
    charged: field.money('What adding the bag cost, in dollars (0 when it is free).'),
    insurance: field.choice(['added', 'not_available_after_booking'], 'What became of the travel insurance request.'),
  }),
  solve(tools, given) {
    const user = tools.get_user_details({ user_id: given.user_id });
    const reservation = reservationOnTrip(tools, given.user_id, given);
    return {
      reservation_id: reservation.reservation_id,
      ...addOneBag(tools, user, reservation, cardId(user, given.card)),
      insurance: 'not_available_after_booking' as const,
    };
  },
  targets: [
    {
      kind: 'eventual_consistency',
      tool: 'update_reservation_baggages',
      recovery: "trust the update's own answer for the new bag count (a read right after may lag); never add the bag twice",
    },
  ],
  claims: ['total_baggages'],
});
