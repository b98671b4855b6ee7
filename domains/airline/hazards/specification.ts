import { z } from 'zod';
import { defineTool } from '../../tool.js';
import type { AirlineDb } from '../db.js';
import { airportCode, flightDate } from '../fields.js';

// What airline's specification hazards change in how a tool is called: a rule and a decoy.

/**
 * Flight numbers without the carrier code, as status APIs that take the carrier and the number apart
 * want them (Amadeus On-Demand Flight Status: carrierCode=HA, flightNumber=170): reservations and
 * searches return 'HAT170', which is refused while the rule is on.
 */
export const flightNumberDigits = {
  rule: "flight_number is the number without the carrier code: digits only, e.g. '170' for flight HAT170.",
  accept: (value: string) => (/^\d{1,4}$/.test(value.trim()) ? `HAT${value.trim().padStart(3, '0')}` : null),
  message: 'flight_number: invalid format',
  describe: "The flight's number without the carrier code, digits only, e.g. '170' for flight HAT170.",
};

/** A deprecated twin of search_direct_flight: a timetable snapshot, without availability, seats or prices. */
export const searchFlightsV1 = defineTool({
  name: 'search_flights_v1',
  description: 'Search flights between two airports on a date.',
  input: z.strictObject({
    origin: airportCode,
    destination: airportCode,
    date: flightDate,
  }),
  output: z.looseObject({}),
  errors: [],
  mutates: false,
  run({ origin, destination }, db: AirlineDb) {
    const flights = [...db.flights.values()].filter((f) => f.origin === origin && f.destination === destination);
    return {
      flights: flights.map((f) => ({
        flight_number: f.flight_number,
        origin: f.origin,
        destination: f.destination,
        departure: f.scheduled_departure_time_est,
        arrival: f.scheduled_arrival_time_est,
      })),
      deprecated: true,
      deprecation:
        'search_flights_v1 is deprecated and will be removed: it lists the timetable as of its last sync, whether or not a ' +
        'flight is open for booking on the date, without seats or prices. Use search_direct_flight.',
      last_synced_at: '2024-05-01T00:00:00Z',
    };
  },
});
