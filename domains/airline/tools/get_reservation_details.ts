import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { reservationId } from '../fields.js';
import { Reservation } from '../schema.js';
import { requireReservation, type AirlineDb } from '../db.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { AIRLINE_ERRORS } from '../errors.js';

/** The fares of a reservation: each flight's price × passengers. */
export const faresOf = (reservation: Reservation): number => reservation.flights.reduce((sum, flight) => sum + flight.price, 0) * reservation.passengers.length;

const paidFor = (reservation: Reservation): number => reservation.payment_history.reduce((sum, payment) => sum + payment.amount, 0);

/** The answer for a reservation (a copy): a booking sold as its fares alone shows their total, as a ticket shows its fare. */
export function detailsOf(reservation: Reservation): z.infer<typeof ReservationDetails> {
  const fares = faresOf(reservation);
  const fareOnly = reservation.status == null && reservation.insurance === 'no' && reservation.nonfree_baggages === 0 && paidFor(reservation) === fares;
  return { ...structuredClone(reservation), remarks: [...(reservation.remarks ?? [])], ...(fareOnly ? { total_price: fares } : {}) };
}

/** The answer: the record, its remarks (none is an empty list) and, for a booking that was its fares alone, their total. */
export const ReservationDetails = Reservation.extend({
  remarks: z.array(z.string()).describe('Notes that the agency, the call centre or the airport typed into the booking, oldest first.'),
  total_price: z
    .number()
    .optional()
    .describe('The fare total (prices × passengers), shown while the reservation is active and was sold without extras (no insurance, no paid bags).'),
});

export default defineTool({
  name: 'get_reservation_details',
  description:
    'One reservation: its user, trip (origin, destination, one way or round trip), cabin, flight segments with the ' +
    'price paid per passenger, passengers, payment history (refunds are negative), booking time, bags, insurance, ' +
    "status ('cancelled', or null while active) and remarks.",
  input: z.strictObject({ reservation_id: reservationId }),
  output: ReservationDetails,
  errors: codesOf(AIRLINE_ERRORS, 'reservation_not_found'),
  mutates: false,
  example: { reservation_id: 'S0Q246' },
  run: ({ reservation_id }, db: AirlineDb) => detailsOf(requireReservation(db, reservation_id)),
});
