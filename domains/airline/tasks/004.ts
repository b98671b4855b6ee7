import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { airlineTask } from './define.js';
import { choose, datesFrom, openFlights, place, TOMORROW } from './picks.js';

// A route with two flights or more, on a date when at least one is open for booking: the deprecated
// timetable lists every flight of the route, without seats, whether or not it is open that day.

export default airlineTask({
  id: 'airline/004',
  title: 'Which flights can still be booked',
  categories: ['single-step'],
  pick({ db, random }) {
    const dates = datesFrom(db, TOMORROW);
    const flights = [...db.flights.values()];
    const routes = [...new Set(flights.map((f) => `${f.origin}/${f.destination}`))]
      .sort()
      .filter((route) => flights.filter((f) => `${f.origin}/${f.destination}` === route).length >= 2);
    const candidates = routes.flatMap((route) => {
      const [origin, destination] = route.split('/') as [string, string];
      return dates.filter((date) => openFlights(db, origin, destination, date).length > 0).map((date) => ({ origin, destination, date }));
    });
    // Prefer a day when one of the route's flights is not open for booking, where the route has one.
    const closed = candidates.filter(
      (c) => openFlights(db, c.origin, c.destination, c.date).length < flights.filter((f) => f.origin === c.origin && f.destination === c.destination).length,
    );
    const { origin, destination, date } = choose(random, closed.length > 0 && random.bool(0.5) ? closed : candidates, 'airline/004', 'route with two flights');
    return { origin, destination, date, from: place(db, origin), to: place(db, destination) };
  },
  request: (given) => `Which flights from ${given.from} to ${given.to} on ${given.date} can I still book, and how many economy seats are left on each?`,
  answer: z.strictObject({
    flights: field.set(
      z.strictObject({
        flight_number: field.id('The flight number (e.g. HAT047).'),
        economy_seats_left: field.count('How many economy seats it has left.'),
      }),
      'Every direct flight on that route and date that is open for booking.',
    ),
  }),
  solve(tools, given) {
    return {
      flights: tools
        .search_direct_flight({ origin: given.origin, destination: given.destination, date: given.date })
        .map((f) => ({ flight_number: f.flight_number, economy_seats_left: f.available_seats.economy })),
    };
  },
  targets: [
    {
      kind: 'lookalike',
      tool: 'search_direct_flight',
      recovery: 'search with search_direct_flight, the maintained search; the deprecated search_flights_v1 lists a timetable without availability',
    },
    { kind: 'latency', tool: 'search_direct_flight', recovery: 'retry the search after the gateway timeout' },
  ],
});
