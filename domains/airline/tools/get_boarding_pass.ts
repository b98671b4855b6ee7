import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { toolError } from '../../errors.js';
import { AIRLINE_ERRORS } from '../errors.js';
import { foldForMatch } from '../../../lib/text.js';
import { passengerOnFlight } from '../fields.js';
import type { AirlineDb } from '../db.js';
import { checkInKey } from '../derive/check-ins.js';
import { Cabin, Name } from '../schema.js';
import { BOARDING_BEFORE_MS, departureOf, gateOf, instanceOf, localTime, requireReservedFlight, timeZoneOf } from '../operations.js';
import { requirePassenger, samePassenger } from '../seats.js';
import { codesOf } from '../../../lib/error-catalog.js';

/** Compartment codes of the boarding-pass barcode. */
const COMPARTMENT: Record<Cabin, string> = { business: 'J', economy: 'Y', basic_economy: 'N' };

/**
 * The barcode's text, after IATA's bar-coded boarding pass (BCBP) layout: name, booking
 * reference, route, carrier and flight, day of the year, compartment, seat, sequence.
 */
export function barcodeOf(pass: {
  passenger: { first_name: string; last_name: string };
  reservation_id: string;
  origin: string;
  destination: string;
  flight: string;
  date: string;
  cabin: Cabin;
  seat: string | null;
  sequence: number;
}): string {
  const upper = (text: string) =>
    foldForMatch(text)
      .toUpperCase()
      .replace(/[^A-Z ]/g, '');
  const name = `${upper(pass.passenger.last_name)}/${upper(pass.passenger.first_name)}`.slice(0, 20).padEnd(20);
  const [, carrier, number] = /^([A-Z]*)(\d*)/.exec(pass.flight)! as unknown as [string, string, string];
  const day = Math.round((Date.parse(pass.date) - Date.parse(`${pass.date.slice(0, 4)}-01-01`)) / 86_400_000) + 1;
  const seat = pass.seat === null ? 'GATE' : pass.seat.padStart(4, '0');
  return (
    `M1${name}E${pass.reservation_id.padEnd(7)}${pass.origin}${pass.destination}${carrier.padEnd(3)}` +
    `${number.padStart(4, '0').padEnd(5)}${String(day).padStart(3, '0')}${COMPARTMENT[pass.cabin]}${seat}${String(pass.sequence).padStart(4, '0')} 100`
  );
}

const LocalTime = z.string().describe("Local time at the departure airport, ISO 8601 with its UTC offset, e.g. '2024-05-15T16:20:00-04:00'.");

export default defineTool({
  name: 'get_boarding_pass',
  description:
    "A passenger's boarding pass for one flight of a reservation, once the reservation is checked in for it (check_in): " +
    'seat, cabin, boarding group and sequence, gate, departure and boarding time (40 minutes before departure), in the ' +
    "departure airport's local time, and the barcode text. Before check-in it fails with 409 'Not checked in'.",
  input: z.strictObject({
    ...passengerOnFlight,
  }),
  output: z.object({
    passenger: Name,
    reservation_id: z.string(),
    flight: z.string().describe('Flight number.'),
    date: z.string(),
    origin: z.string(),
    destination: z.string(),
    seat: z.string().nullable().describe('Null: no seat yet, it is given at the gate.'),
    cabin: Cabin,
    boarding_group: z.number().int(),
    sequence: z.number().int(),
    gate: z.string(),
    terminal: z.string(),
    departure_time: LocalTime.describe('Expected departure (the latest the airline announced), local time at the origin.'),
    boarding_time: LocalTime.describe('Boarding starts: 40 minutes before departure, local time at the origin.'),
    barcode: z.string(),
  }),
  errors: codesOf(
    AIRLINE_ERRORS,
    'reservation_not_found',
    'flight_not_found',
    'flight_date_not_found',
    'flight_not_in_reservation',
    'passenger_not_found',
    'reservation_cancelled',
    'flight_cancelled',
    'not_checked_in',
  ),
  mutates: false,
  example: { reservation_id: 'IZFV6C', flight_number: 'HAT193', date: '2024-05-15', first_name: 'Kenji', last_name: 'Jackson' },
  run({ reservation_id, flight_number, date, first_name, last_name }, db: AirlineDb) {
    const { reservation, flight, instance } = requireReservedFlight(db, reservation_id, flight_number, date);
    const passenger = requirePassenger(reservation, first_name, last_name);
    if (instance.status === 'cancelled') throw toolError(AIRLINE_ERRORS.flight_cancelled, `Flight ${flight.flight_number} on ${date} is cancelled`);
    const boarding = db.check_ins.get(checkInKey(reservation.reservation_id, flight.flight_number, date))?.passengers.find((p) => samePassenger(p, passenger));
    if (!boarding) throw toolError(AIRLINE_ERRORS.not_checked_in, 'Not checked in');
    const times = instanceOf(flight, date, instance).times;
    const timeZone = timeZoneOf(db, flight.origin);
    const departure = departureOf(times);
    const pass = {
      passenger,
      reservation_id: reservation.reservation_id,
      flight: flight.flight_number,
      date,
      origin: flight.origin,
      destination: flight.destination,
      seat: boarding.seat,
      cabin: reservation.cabin,
      boarding_group: boarding.boarding_group,
      sequence: boarding.sequence,
      ...gateOf(flight.flight_number, date, flight.origin),
      departure_time: localTime(departure, timeZone),
      boarding_time: localTime(new Date(departure.getTime() - BOARDING_BEFORE_MS), timeZone),
    };
    return { ...pass, barcode: barcodeOf(pass) };
  },
});
