import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { toolError } from '../../errors.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { AIRLINE_ERRORS } from '../errors.js';
import { passengers, reservationId } from '../fields.js';
import { Reservation } from '../schema.js';
import { requireReservation, type AirlineDb } from '../db.js';

const TICKETING_TIMEOUT = 'TICKETING_TIMEOUT: the ticket could not be reissued; the passenger keeps the previous details. Retry.';

/** Each passenger's ticket reissue, as the ticketing system reports a change: those in `failed` (indices) failed. */
export function ticketing(count: number, failed: readonly number[] = []) {
  const entries = Array.from({ length: count }, (_, passenger) =>
    failed.includes(passenger) ? { passenger, status: 'failed' as const, error: TICKETING_TIMEOUT } : { passenger, status: 'updated' as const, error: null },
  );
  return { ticketing: entries, errors: failed.length > 0 };
}

const Ticketing = {
  ticketing: z
    .array(
      z.object({
        passenger: z.number().int().describe('Index of the passenger in the list.'),
        status: z.enum(['updated', 'failed']),
        error: z.string().nullable().describe('Why the ticket could not be reissued; null when it was.'),
      }),
    )
    .describe("Each passenger's ticket reissue."),
  errors: z.boolean().describe("True when a passenger's ticket could not be reissued (that passenger keeps the previous details)."),
};

export default defineTool({
  name: 'update_reservation_passengers',
  description:
    "Replace the passengers' details (names, dates of birth) of a reservation. The number of passengers cannot " +
    'change: give exactly as many as the reservation has, in the same order, changed or not. Confirm the new ' +
    'details with the customer first. Returns the updated reservation, with the ticketing status of each passenger.',
  input: z.strictObject({
    reservation_id: reservationId,
    passengers: passengers.describe('Every passenger of the reservation with their new details, as many as it already has.'),
  }),
  output: Reservation.extend(Ticketing),
  errors: codesOf(AIRLINE_ERRORS, 'reservation_not_found', 'passenger_count_mismatch'),
  mutates: true,
  effect: { destructive: true, idempotent: true },
  example: { reservation_id: 'S0Q246', passengers: [{ first_name: 'Kwame', last_name: 'Akana', dob: '2009-11-19' }] },
  run({ reservation_id, passengers }, db: AirlineDb) {
    const current = requireReservation(db, reservation_id);
    if (passengers.length !== current.passengers.length) {
      throw toolError(AIRLINE_ERRORS.passenger_count_mismatch, 'Number of passengers does not match');
    }
    const reservation = db.reservations.edit(current.reservation_id)!;
    reservation.passengers = passengers.map(({ first_name, last_name, dob }) => ({ first_name, last_name, dob }));
    return { ...reservation, ...ticketing(passengers.length) };
  },
});
