import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { airlineTask } from './define.js';
import { nextDay } from '../tools/search_onestop_flight.js';
import { choose, ONESTOP_LAST, onestopTrips, place } from './picks.js';

// A route and a date beyond the one-stop search's horizon, with at least one itinerary: the search refuses
// the date, and the legs searched one by one give the itineraries.

const itinerary = z.strictObject({
  first_flight: field.id('The flight number of the first leg.'),
  second_flight: field.id('The flight number of the second leg.'),
});

export default airlineTask({
  id: 'airline/011',
  title: 'One-stop itineraries on a later date',
  categories: ['single-step'],
  pick({ db, random }) {
    const trips = onestopTrips(db, nextDay(ONESTOP_LAST), '2024-05-29').filter((trip) => trip.pairs.length > 0 && trip.pairs.length <= 12);
    const { origin, destination, date } = choose(random, trips, 'airline/011', 'one-stop trip after the search horizon');
    return { origin, destination, date, from: place(db, origin), to: place(db, destination) };
  },
  request: (given) =>
    `I need to get from ${given.from} to ${given.to} on ${given.date} and I'm fine with one connection. Which one-stop itineraries are there?`,
  answer: z.strictObject({ itineraries: field.set(itinerary, 'Every one-stop itinerary open for booking leaving that day.') }),
  solve(tools, given) {
    if (given.date <= ONESTOP_LAST) throw new Error('airline/011 is about a date after the one-stop horizon');
    return {
      itineraries: tools
        .search_onestop_flight({ origin: given.origin, destination: given.destination, date: given.date })
        .map(([first, second]) => ({ first_flight: first.flight_number, second_flight: second.flight_number })),
    };
  },
  targets: [
    {
      kind: 'feature_limit',
      tool: 'search_onestop_flight',
      recovery: 'search each leg with search_direct_flight (origin → connecting airport, connecting airport → destination) and pair the legs that connect',
    },
  ],
});
