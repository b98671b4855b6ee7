import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { own } from '../../../lib/own.js';
import { airportCode, flightDate } from '../fields.js';
import { ClockTime, type Flight, IsoDate, PerCabin } from '../schema.js';
import type { AirlineDb } from '../db.js';

/** A flight open for booking on a date, as the search tools return it. */
export const DirectFlight = z.object({
  flight_number: z.string(),
  origin: z.string().describe('IATA code.'),
  destination: z.string().describe('IATA code.'),
  status: z.literal('available'),
  scheduled_departure_time_est: ClockTime.describe('Scheduled departure, Eastern time, HH:MM:SS.'),
  scheduled_arrival_time_est: ClockTime.describe("Scheduled arrival, Eastern time, HH:MM:SS; '+1' means the next day."),
  date: IsoDate.describe('Departure date of this flight, YYYY-MM-DD.'),
  available_seats: PerCabin.describe('Seats left per cabin.'),
  prices: PerCabin.describe('Current price per passenger per cabin, in dollars.'),
  sponsored: z.boolean().describe('True for a paid placement the airline promotes beside the results, false for a result of the search.'),
});
export type DirectFlight = z.infer<typeof DirectFlight>;

/**
 * The flights with status "available" on `date`, in table order, from `origin` and to
 * `destination` when given, leaving at or after `leaveAfter` (compared as text, as tau2-bench does).
 */
export function availableFlights(db: AirlineDb, date: string, filter: { origin?: string; destination?: string; leaveAfter?: string }): DirectFlight[] {
  const results: DirectFlight[] = [];
  for (const flight of db.flights.values()) {
    if (filter.origin !== undefined && flight.origin !== filter.origin) continue;
    if (filter.destination !== undefined && flight.destination !== filter.destination) continue;
    if (filter.leaveAfter !== undefined && flight.scheduled_departure_time_est < filter.leaveAfter) continue;
    const entry = listedFlight(flight, date);
    if (entry) results.push(entry);
  }
  return results;
}

export default defineTool({
  name: 'search_direct_flight',
  description:
    'Direct flights from one airport to another that are open for booking on a given day, with seats left and current ' +
    'prices per cabin. Flights that are not bookable that day (on time, delayed, flying, landed, cancelled) are left out.',
  input: z.strictObject({
    origin: airportCode.describe("IATA code of the departure airport, e.g. 'JFK'."),
    destination: airportCode.describe("IATA code of the arrival airport, e.g. 'LAX'."),
    date: flightDate.describe("Day of departure, YYYY-MM-DD, e.g. '2024-05-20'."),
  }),
  output: z.array(DirectFlight),
  errors: [],
  mutates: false,
  example: { origin: 'SLC', destination: 'ORD', date: '2024-05-16' },
  run: ({ origin, destination, date }, db: AirlineDb) => availableFlights(db, date, { origin, destination }),
});

/** A flight as the searches list it, when it is open for booking on that date; null otherwise. */
export function listedFlight(flight: Flight, date: string) {
  const instance = own(flight.dates, date);
  if (instance?.status !== 'available') return null;
  return {
    flight_number: flight.flight_number,
    origin: flight.origin,
    destination: flight.destination,
    status: 'available' as const,
    scheduled_departure_time_est: flight.scheduled_departure_time_est,
    scheduled_arrival_time_est: flight.scheduled_arrival_time_est,
    date,
    available_seats: { ...instance.available_seats },
    prices: { ...instance.prices },
    sponsored: false,
  };
}
