import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { rejected } from '../../errors.js';
import { passengers, reservationId } from '../fields.js';
import { Reservation } from '../schema.js';
import { requireReservation, type AirlineDb } from '../db.js';

export default defineTool({
  name: 'update_reservation_passengers',
  description:
    "Replace the passengers' details (names, dates of birth) of a reservation. The number of passengers cannot " +
    'change: give exactly as many as the reservation has, in the same order, changed or not. Confirm the new ' +
    'details with the customer first. Returns the updated reservation.',
  input: z.strictObject({
    reservation_id: reservationId,
    passengers: passengers.describe('Every passenger of the reservation with their new details, as many as it already has.'),
  }),
  output: Reservation,
  mutates: true,
  effect: { destructive: true, idempotent: true },
  run({ reservation_id, passengers }, db: AirlineDb) {
    const current = requireReservation(db, reservation_id);
    if (passengers.length !== current.passengers.length) {
      throw rejected('Number of passengers does not match', 'passenger_count_mismatch');
    }
    const reservation = db.reservations.edit(current.reservation_id)!;
    reservation.passengers = passengers.map(({ first_name, last_name, dob }) => ({ first_name, last_name, dob }));
    return reservation;
  },
});
