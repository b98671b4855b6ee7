import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { airlineTask } from './define.js';
import { bookable, bookFlights, cardId, cardWords, choose, fullName, namedCards, place } from './picks.js';

// A customer with a certificate (named by its amount), a card and a saved passenger books two seats on a
// flight whose fare for two exceeds the certificate: the rest goes on the card.

export default airlineTask({
  id: 'airline/025',
  title: 'Book for two with a certificate and a card',
  categories: ['multi-step'],
  pick({ db, random }) {
    const certificates = (u: { payment_methods: Record<string, { source: string; amount?: number }> }) =>
      Object.values(u.payment_methods).filter((m) => m.source === 'certificate');
    const users = [...db.users.values()].filter((u) => {
      const amounts = certificates(u).map((m) => m.amount);
      const names = u.saved_passengers.map(fullName);
      return (
        amounts.some((a) => amounts.filter((b) => b === a).length === 1) &&
        namedCards(u).length > 0 &&
        names.some((n) => names.filter((m) => m === n).length === 1 && n !== fullName(u.name))
      );
    });
    const user = choose(random, users, 'airline/025', 'customer with a certificate, a card and a saved passenger');
    const amounts = certificates(user).map((m) => m.amount!);
    const certificate = random.pick(amounts.filter((a) => amounts.filter((b) => b === a).length === 1));
    const names = user.saved_passengers.map(fullName);
    const companion = random.pick(
      user.saved_passengers.filter((p) => names.filter((n) => n === fullName(p)).length === 1 && fullName(p) !== fullName(user.name)),
    );
    const card = random.pick(namedCards(user));
    const { price: _, ...flight } = choose(
      random,
      bookable(db, 'economy', 2).filter((f) => 2 * f.price > certificate),
      'airline/025',
      'flight with two economy seats',
    );
    return {
      user_id: user.user_id,
      ...flight,
      from: place(db, flight.origin),
      to: place(db, flight.destination),
      companion: { first_name: companion.first_name, last_name: companion.last_name },
      certificate_amount: certificate,
      card,
      card_words: cardWords(card),
    };
  },
  request: (given) =>
    `Hi, I'm ${given.user_id}. Please book ${given.flight_number} from ${given.from} to ${given.to} on ${given.date}, one way, economy, ` +
    `for me and my saved passenger ${given.companion.first_name} ${given.companion.last_name}. No bags, no insurance. ` +
    `Use my $${given.certificate_amount} certificate and put the rest on ${given.card_words}. Yes, book it.`,
  answer: z.strictObject({
    reservation_id: field.id('The id of the new reservation.'),
    total_charged: field.money('The total price of the booking, in dollars.'),
    payments: field.set(
      z.strictObject({ payment_id: field.id('A payment method used.'), amount: field.money('The amount it paid, in dollars.') }),
      'How the total was paid, per payment method.',
    ),
  }),
  solve(tools, given) {
    const { reservation, total, payment_methods } = bookFlights(tools, {
      user_id: given.user_id,
      flight_type: 'one_way',
      cabin: 'economy',
      flights: [given],
      companions: [given.companion],
      insurance: 'no',
      pay: (amount, user) => {
        const certificate = Object.values(user.payment_methods).find((m) => m.source === 'certificate' && m.amount === given.certificate_amount)!;
        return [
          { payment_id: certificate.id, amount: given.certificate_amount },
          { payment_id: cardId(user, given.card), amount: amount - given.certificate_amount },
        ];
      },
    });
    return { reservation_id: reservation.reservation_id, total_charged: total, payments: payment_methods };
  },
  targets: [
    { kind: 'transport_fault', tool: 'book_reservation', recovery: 'retry the booking: a write cut off before it was sent was not applied' },
    { kind: 'transient_failure', tool: 'search_direct_flight', recovery: 'retry the search' },
  ],
  claims: ['reservation_id'],
});
