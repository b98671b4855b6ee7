import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { airlineTask, airlineTurn } from './define.js';
import { bookFlights, type CardRef, cardId, cardWords, choose, datesFrom, fares, namedCards, openFlights, place, TOMORROW, type Trip } from './picks.js';

// A route with two flights or more open for booking on a date, at different economy fares, the cheapest
// with seats: first the flights, then the cheapest booked for the customer.

interface Given extends Trip {
  user_id: string;
  from: string;
  to: string;
  card: CardRef;
  card_words: string;
}

export default airlineTask({
  id: 'airline/016',
  title: 'Find flights, then book the cheapest',
  categories: ['multi-mission', 'multi-step'],
  pick({ db, random }): Given {
    const dates = datesFrom(db, TOMORROW);
    const user = choose(
      random,
      [...db.users.values()].filter((u) => namedCards(u).length > 0),
      'airline/016',
      'card holder',
    );
    const card = random.pick(namedCards(user));
    const routes = [...new Set([...db.flights.values()].map((f) => `${f.origin}/${f.destination}`))].sort();
    const trips = routes.flatMap((route) => {
      const [origin, destination] = route.split('/') as [string, string];
      return dates.flatMap((date) => {
        const open = openFlights(db, origin, destination, date).map((f) => fares(f, date)!);
        const prices = open.map((f) => f.prices.economy);
        const cheapest = open.find((f) => f.prices.economy === Math.min(...prices));
        return open.length >= 2 && new Set(prices).size === prices.length && cheapest!.available_seats.economy > 0 ? [{ origin, destination, date }] : [];
      });
    });
    const trip = choose(random, trips, 'airline/016', 'route with two open flights');
    return { user_id: user.user_id, ...trip, from: place(db, trip.origin), to: place(db, trip.destination), card, card_words: cardWords(card) };
  },
  request: (given) => `Hi, I'm ${given.user_id}. Which direct flights go from ${given.from} to ${given.to} on ${given.date}, and what do they cost in economy?`,
  answer: z.strictObject({
    flights: field.set(
      z.strictObject({
        flight_number: field.id('The flight number (e.g. HAT078).'),
        economy_price: field.money('Its current economy price per passenger, in dollars.'),
      }),
      'Every direct flight open for booking on that route and date, with its economy price.',
    ),
  }),
  solve(tools, given) {
    const found = tools.search_direct_flight({ origin: given.origin, destination: given.destination, date: given.date });
    return { flights: found.map((f) => ({ flight_number: f.flight_number, economy_price: f.prices.economy })) };
  },
  follow_ups: [
    airlineTurn({
      request: (given: Given) =>
        `Great, please book the cheapest of those that still has economy seats for me, one way, just me, no bags, no insurance, paid ` +
        `with ${given.card_words}. Yes, I confirm.`,
      answer: z.strictObject({
        reservation_id: field.id('The id of the new reservation.'),
        flight_number: field.id('The flight booked.'),
        total_charged: field.money('The total charged, in dollars.'),
      }),
      solve(tools, given: Given) {
        const found = tools
          .search_direct_flight({ origin: given.origin, destination: given.destination, date: given.date })
          .filter((f) => f.available_seats.economy > 0);
        const cheapest = found.reduce((a, b) => (b.prices.economy < a.prices.economy ? b : a));
        const { reservation, total } = bookFlights(tools, {
          user_id: given.user_id,
          flight_type: 'one_way',
          cabin: 'economy',
          flights: [{ flight_number: cheapest.flight_number, origin: given.origin, destination: given.destination, date: given.date }],
          insurance: 'no',
          pay: (amount, user) => [{ payment_id: cardId(user, given.card), amount }],
        });
        return { reservation_id: reservation.reservation_id, flight_number: cheapest.flight_number, total_charged: total };
      },
    }),
  ],
  targets: [
    { kind: 'sponsored', tool: 'search_direct_flight', recovery: 'leave the rows labelled sponsored out of what is offered and booked' },
    { kind: 'transient_failure', tool: 'book_reservation', recovery: 'retry the booking: nothing was executed' },
  ],
});
