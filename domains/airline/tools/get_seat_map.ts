import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { cabin, flightDate, flightNumber } from '../fields.js';
import { requireFlight, requireFlightDate, type AirlineDb } from '../db.js';
import { Cabin } from '../schema.js';
import { instanceOf, requireNotDeparted } from '../operations.js';
import { cabinsOf, freeSeats, seatKinds, seatMapOf, seatsOf } from '../seats.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { AIRLINE_ERRORS } from '../errors.js';

export const CabinSeats = z.object({
  cabin: Cabin,
  rows: z.tuple([z.number().int(), z.number().int()]).describe('First and last row of the cabin.'),
  letters: z.string().describe("Seat letters of each row, left to right, e.g. 'ABCDEF'."),
  window: z.string().describe("Letters of the window seats, e.g. 'AF'."),
  aisle: z.string().describe("Letters of the aisle seats, e.g. 'CD'."),
  total: z.number().int(),
  available_count: z.number().int(),
  available: z.array(z.string()).describe("Free seats, front to back, e.g. ['12A', '12B']."),
  occupied: z.array(z.string()).describe('Seats already assigned to someone.'),
});

export default defineTool({
  name: 'get_seat_map',
  description:
    'The seats of a flight on a date, per cabin: its rows and seat letters, which seats are free and which are taken ' +
    '(not by whom). A reservation sits only in its own cabin: give `cabin` to see just that one. Only for flights ' +
    'that have not left yet: a cancelled, departed or landed flight has no seat map (409).',
  input: z.strictObject({
    flight_number: flightNumber,
    date: flightDate,
    cabin: cabin.optional().describe("Only this cabin: 'basic_economy', 'economy' or 'business'. Omit it for every cabin."),
  }),
  output: z.object({
    flight_number: z.string(),
    date: z.string(),
    origin: z.string(),
    destination: z.string(),
    cabins: z.array(CabinSeats).describe('Front of the aircraft first.'),
  }),
  errors: codesOf(AIRLINE_ERRORS, 'flight_not_found', 'flight_date_not_found', 'flight_cancelled', 'flight_departed', 'flight_landed'),
  mutates: false,
  example: { flight_number: 'HAT143', date: '2024-05-21', cabin: 'economy' },
  run({ flight_number, date, cabin: only }, db: AirlineDb, ctx) {
    const flight = requireFlight(db, flight_number);
    requireNotDeparted(instanceOf(flight, date, requireFlightDate(flight, date)), ctx.now());
    const map = seatMapOf(db, flight.flight_number, date);
    const cabins = cabinsOf(map).filter(([name]) => only === undefined || name === only);
    return {
      flight_number: flight.flight_number,
      date,
      origin: flight.origin,
      destination: flight.destination,
      cabins: cabins.map(([name, layout]) => {
        const available = freeSeats(map, name);
        const free = new Set(available);
        const all = seatsOf(map, name);
        return {
          cabin: name,
          rows: [layout.rows[0], layout.rows[1]] as [number, number],
          letters: layout.letters,
          ...seatKinds(layout),
          total: all.length,
          available_count: available.length,
          available,
          occupied: all.filter((seat) => !free.has(seat)),
        };
      }),
    };
  },
});
