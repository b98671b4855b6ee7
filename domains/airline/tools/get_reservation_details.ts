import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { reservationId } from '../fields.js';
import { Reservation } from '../schema.js';
import { requireReservation, type AirlineDb } from '../db.js';

export default defineTool({
  name: 'get_reservation_details',
  description:
    'One reservation: its user, trip (origin, destination, one way or round trip), cabin, flight segments with the ' +
    'price paid per passenger, passengers, payment history (refunds are negative), booking time, bags, insurance ' +
    "and status ('cancelled', or null while active).",
  input: z.strictObject({ reservation_id: reservationId }),
  output: Reservation,
  mutates: false,
  run: ({ reservation_id }, db: AirlineDb) => requireReservation(db, reservation_id),
});
