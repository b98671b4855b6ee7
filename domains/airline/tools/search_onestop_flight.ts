import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { airportCode, flightDate } from '../fields.js';
import type { AirlineDb } from '../db.js';
import { availableFlights, DirectFlight } from './search_direct_flight.js';

/** The calendar day after an ISO date. */
export function nextDay(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
}

export default defineTool({
  name: 'search_onestop_flight',
  description:
    'Itineraries with one connection from one airport to another, starting on a date: pairs [first leg, second leg] ' +
    'of flights open for booking. The second leg leaves the connecting airport no earlier than the first one arrives; ' +
    "when the first leg arrives after midnight ('+1'), the second leg is on the next day. Each leg carries its own " +
    'date, seats left and prices; a passenger pays both legs.',
  input: z.strictObject({
    origin: airportCode.describe("IATA code of the departure airport, e.g. 'JFK'."),
    destination: airportCode.describe("IATA code of the final arrival airport, e.g. 'SEA'."),
    date: flightDate.describe("Departure date of the first leg, YYYY-MM-DD, e.g. '2024-05-20'."),
  }),
  output: z.array(z.tuple([DirectFlight, DirectFlight]).describe('[first leg, second leg]')),
  errors: [],
  mutates: false,
  example: { origin: 'SLC', destination: 'ORD', date: '2024-05-16' },
  run({ origin, destination, date }, db: AirlineDb) {
    const pairs: [DirectFlight, DirectFlight][] = [];
    for (const first of availableFlights(db, date, { origin })) {
      const secondDate = first.scheduled_arrival_time_est.includes('+1') ? nextDay(date) : date;
      const onward = availableFlights(db, secondDate, { origin: first.destination, destination, leaveAfter: first.scheduled_arrival_time_est });
      for (const second of onward) pairs.push([first, second]);
    }
    return pairs;
  },
});
