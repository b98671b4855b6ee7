import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { airlineTask } from './define.js';
import { bookable, bookFlights, cardId, cardWords, choose, namedCards, place } from './picks.js';

// A round trip on flights the customer names, each open for booking in economy: the fares, the traveller's
// details and the card's id come from the tools.

export default airlineTask({
  id: 'airline/007',
  title: 'Book a round trip',
  categories: ['multi-step'],
  pick({ db, random }) {
    const user = choose(
      random,
      [...db.users.values()].filter((u) => namedCards(u).length > 0),
      'airline/007',
      'card holder',
    );
    const card = random.pick(namedCards(user));
    const open = bookable(db, 'economy', 1).map(({ price: _, ...wanted }) => wanted);
    const trips = open.flatMap((out) =>
      open.filter((back) => back.origin === out.destination && back.destination === out.origin && back.date > out.date).map((back) => ({ out, back })),
    );
    const { out, back } = choose(random, trips, 'airline/007', 'round trip open for booking');
    return { user_id: user.user_id, out, back, from: place(db, out.origin), to: place(db, out.destination), card, card_words: cardWords(card) };
  },
  request: (given) =>
    `Hello, my user id is ${given.user_id}. Please book me a round trip in economy: ${given.out.flight_number} from ${given.from} to ${given.to} ` +
    `on ${given.out.date}, ` +
    `and ${given.back.flight_number} back on ${given.back.date}. Only me travelling, no bags, no insurance, pay the current fares with ${given.card_words}. ` +
    `Yes, I confirm.`,
  answer: z.strictObject({
    reservation_id: field.id('The id of the new reservation.'),
    total_charged: field.money('The total charged, in dollars.'),
    charged_to: field.id("The payment method charged (its id in the customer's profile)."),
  }),
  solve(tools, given) {
    const { reservation, total } = bookFlights(tools, {
      user_id: given.user_id,
      flight_type: 'round_trip',
      cabin: 'economy',
      flights: [given.out, given.back],
      insurance: 'no',
      pay: (amount, user) => [{ payment_id: cardId(user, given.card), amount }],
    });
    return { reservation_id: reservation.reservation_id, total_charged: total, charged_to: reservation.payment_history[0]!.payment_id };
  },
  targets: [
    {
      kind: 'latency',
      tool: 'book_reservation',
      recovery:
        'send the booking with an idempotency key and repeat it with the same key after the gateway timeout (or check the profile first): never book twice',
    },
    { kind: 'transport_fault', tool: 'search_direct_flight', recovery: 'retry the search when the connection fails' },
  ],
  claims: ['reservation_id'],
});
