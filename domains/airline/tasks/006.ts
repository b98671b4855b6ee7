import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { airlineTask } from './define.js';
import { bookable, bookFlights, cardId, cardWords, choose, namedCards, place } from './picks.js';

// The customer names the flight and their card; the fare, their name and date of birth and the card's id
// come from the tools.

export default airlineTask({
  id: 'airline/006',
  title: 'Book a one-way flight',
  categories: ['multi-step'],
  pick({ db, random }) {
    const user = choose(
      random,
      [...db.users.values()].filter((u) => namedCards(u).length > 0),
      'airline/006',
      'card holder',
    );
    const card = random.pick(namedCards(user));
    const flight = choose(random, bookable(db, 'economy', 1), 'airline/006', 'flight open for booking');
    const { price: _, ...wanted } = flight;
    return { user_id: user.user_id, ...wanted, from: place(db, flight.origin), to: place(db, flight.destination), card, card_words: cardWords(card) };
  },
  request: (given) =>
    `Hi, this is ${given.user_id}. I'd like to book flight ${given.flight_number} from ${given.from} to ${given.to} on ${given.date}, one way, economy, ` +
    `just me. ` +
    `No checked bags and no travel insurance. Put it on ${given.card_words} at the current fare. Yes, please book it.`,
  answer: z.strictObject({
    reservation_id: field.id('The id of the new reservation.'),
    total_charged: field.money('The total charged, in dollars.'),
    charged_to: field.id("The payment method charged (its id in the customer's profile)."),
  }),
  solve(tools, given) {
    const { reservation, total } = bookFlights(tools, {
      user_id: given.user_id,
      flight_type: 'one_way',
      cabin: 'economy',
      flights: [given],
      insurance: 'no',
      pay: (amount, user) => [{ payment_id: cardId(user, given.card), amount }],
    });
    return { reservation_id: reservation.reservation_id, total_charged: total, charged_to: reservation.payment_history[0]!.payment_id };
  },
  targets: [
    { kind: 'invocation_error', tool: 'book_reservation', recovery: 'repeat the booking with the idempotency_key the 428 asks for' },
    { kind: 'transient_failure', tool: 'book_reservation', recovery: 'retry the booking: nothing was executed' },
  ],
  claims: ['reservation_id'],
});
