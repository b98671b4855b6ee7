import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { airlineTask } from './define.js';
import { bookable, bookFlights, cardId, cardWords, choose, namedCards, place } from './picks.js';

// A business seat with insurance: the business fare, the insurance and the card's id come from the tools.

export default airlineTask({
  id: 'airline/008',
  title: 'Book business class with insurance',
  categories: ['multi-step'],
  pick({ db, random }) {
    const user = choose(
      random,
      [...db.users.values()].filter((u) => namedCards(u).length > 0),
      'airline/008',
      'card holder',
    );
    const card = random.pick(namedCards(user));
    const { price: _, ...flight } = choose(random, bookable(db, 'business', 1), 'airline/008', 'flight with business seats');
    return { user_id: user.user_id, ...flight, from: place(db, flight.origin), to: place(db, flight.destination), card, card_words: cardWords(card) };
  },
  request: (given) =>
    `Hi, I'm ${given.user_id}. Book me on ${given.flight_number} from ${given.from} to ${given.to} on ${given.date}, business class, one way, just me, ` +
    `with travel insurance and no checked bags. Charge it all to ${given.card_words}. Yes, go ahead.`,
  answer: z.strictObject({
    reservation_id: field.id('The id of the new reservation.'),
    total_charged: field.money('The total charged (fare and insurance), in dollars.'),
    charged_to: field.id("The payment method charged (its id in the customer's profile)."),
  }),
  solve(tools, given) {
    const { reservation, total } = bookFlights(tools, {
      user_id: given.user_id,
      flight_type: 'one_way',
      cabin: 'business',
      flights: [given],
      insurance: 'yes',
      pay: (amount, user) => [{ payment_id: cardId(user, given.card), amount }],
    });
    return { reservation_id: reservation.reservation_id, total_charged: total, charged_to: reservation.payment_history[0]!.payment_id };
  },
  targets: [
    {
      kind: 'unknown_outcome',
      tool: 'book_reservation',
      recovery: 'send the booking with an idempotency key and repeat it with the same key: a booking that went through is replayed, not made twice',
    },
    { kind: 'transport_fault', tool: 'book_reservation', recovery: 'retry the booking: a write cut off before it was sent was not applied' },
  ],
  claims: ['reservation_id'],
});
