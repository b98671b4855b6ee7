import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { airlineTask } from './define.js';
import { choose, ONESTOP_LAST, onestopTrips, place, TOMORROW } from './picks.js';

// A route with itineraries through two connecting airports or more, within the one-stop search's horizon:
// a cut answer names the connections it left out.

const itinerary = z.strictObject({
  first_flight: field.id('The flight number of the first leg.'),
  second_flight: field.id('The flight number of the second leg.'),
});

export default airlineTask({
  id: 'airline/012',
  title: 'Every one-stop itinerary',
  categories: ['single-step'],
  pick({ db, random }) {
    const trips = onestopTrips(db, TOMORROW, ONESTOP_LAST).filter((trip) => new Set(trip.pairs.map((pair) => pair.via)).size >= 2 && trip.pairs.length <= 12);
    const { origin, destination, date } = choose(random, trips, 'airline/012', 'one-stop trip through two connections');
    return { origin, destination, date, from: place(db, origin), to: place(db, destination) };
  },
  request: (given) => `What are all the one-stop itineraries from ${given.from} to ${given.to} leaving on ${given.date}? Please list every option.`,
  answer: z.strictObject({ itineraries: field.set(itinerary, 'Every one-stop itinerary open for booking leaving that day.') }),
  solve(tools, given) {
    return {
      itineraries: tools
        .search_onestop_flight({ origin: given.origin, destination: given.destination, date: given.date })
        .map(([first, second]) => ({ first_flight: first.flight_number, second_flight: second.flight_number })),
    };
  },
  targets: [
    {
      kind: 'truncated',
      tool: 'search_onestop_flight',
      recovery: 'search the legs via each omitted connection with search_direct_flight and add the itineraries that connect',
    },
  ],
});
