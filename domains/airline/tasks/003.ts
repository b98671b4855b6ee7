import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { airlineTask } from './define.js';
import { choose, datesFrom, fares, openFlights, place, TOMORROW } from './picks.js';

// A round trip on a route flown both ways, with flights open for booking on both dates, all with economy seats.

const fare = z.strictObject({
  flight_number: field.id('The flight number (e.g. HAT001).'),
  economy_price: field.money('Its current economy price per passenger, in dollars.'),
});

export default airlineTask({
  id: 'airline/003',
  title: 'Direct flights both ways for a round trip',
  categories: ['multi-step', 'parallel'],
  pick({ db, random }) {
    const dates = datesFrom(db, TOMORROW);
    const bookable = new Set<string>();
    for (const flight of db.flights.values()) {
      for (const date of dates) {
        const open = openFlights(db, flight.origin, flight.destination, date);
        if (open.length > 0 && open.every((f) => fares(f, date)!.available_seats.economy > 0)) bookable.add(`${flight.origin}/${flight.destination}/${date}`);
      }
    }
    const routes = [...new Set([...db.flights.values()].map((f) => `${f.origin}/${f.destination}`))].sort();
    const candidates = routes.flatMap((route) => {
      const [origin, destination] = route.split('/') as [string, string];
      return dates.flatMap((out) =>
        dates
          .filter((back) => back > out && bookable.has(`${origin}/${destination}/${out}`) && bookable.has(`${destination}/${origin}/${back}`))
          .map((back) => ({ origin, destination, out, back })),
      );
    });
    const { origin, destination, out, back } = choose(random, candidates, 'airline/003', 'round trip with open flights both ways');
    return { origin, destination, out_date: out, back_date: back, from: place(db, origin), to: place(db, destination) };
  },
  request: (given) =>
    `I'm planning a round trip from ${given.from} to ${given.to}: out on ${given.out_date}, back on ${given.back_date}. ` +
    'Which direct flights can I take each way, and what do they cost in economy?',
  answer: z.strictObject({
    outbound_flights: field.set(fare, 'Every direct flight open for booking on the way out, with its economy price.'),
    return_flights: field.set(fare, 'Every direct flight open for booking on the way back, with its economy price.'),
  }),
  solve(tools, given) {
    const search = (origin: string, destination: string, date: string) =>
      tools.search_direct_flight({ origin, destination, date }).map((f) => ({ flight_number: f.flight_number, economy_price: f.prices.economy }));
    return {
      outbound_flights: search(given.origin, given.destination, given.out_date),
      return_flights: search(given.destination, given.origin, given.back_date),
    };
  },
  targets: [
    {
      kind: 'spec_drift',
      tool: 'search_direct_flight',
      recovery: "re-read the tool listing after the 400 and send the date under the parameter's new name (departure_date)",
    },
    { kind: 'transient_failure', tool: 'search_direct_flight', recovery: 'retry the search' },
  ],
});
