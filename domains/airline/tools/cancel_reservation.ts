import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { toolError } from '../../errors.js';
import { AIRLINE_ERRORS } from '../errors.js';
import { reservationId } from '../fields.js';
import { Reservation } from '../schema.js';
import { requireReservation, type AirlineDb } from '../db.js';
import { codesOf } from '../../../lib/error-catalog.js';

export default defineTool({
  name: 'cancel_reservation',
  description:
    'Cancel a whole reservation. Every payment is refunded to the method that made it (a negative entry is added to ' +
    'the payment history; the money reaches the customer in 5–7 business days). The tool does NOT check whether the ' +
    'reservation may be cancelled: check the cancellation rules of the policy first (booked within 24 hours, flight ' +
    'cancelled by the airline, business cabin, or insurance covering the reason; nothing flown yet), explain the ' +
    'refund, and get an explicit "yes". Returns the cancelled reservation.',
  input: z.strictObject({ reservation_id: reservationId }),
  output: Reservation,
  errors: codesOf(AIRLINE_ERRORS, 'reservation_not_found', 'reservation_cancelled'),
  mutates: true,
  effect: { destructive: true, idempotent: true },
  example: { reservation_id: 'S0Q246' },
  run({ reservation_id }, db: AirlineDb) {
    const current = requireReservation(db, reservation_id);
    if (current.status === 'cancelled') {
      throw toolError(AIRLINE_ERRORS.reservation_cancelled, `Reservation ${current.reservation_id} is already cancelled`);
    }
    const reservation = db.reservations.edit(current.reservation_id)!;
    const refunds = reservation.payment_history.map(({ payment_id, amount }) => ({ payment_id, amount: -amount }));
    reservation.payment_history.push(...refunds);
    reservation.status = 'cancelled';
    return reservation;
  },
});
