import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { flightDate, flightNumber } from '../fields.js';
import { FLIGHT_STATUSES } from '../schema.js';
import { requireFlight, requireFlightDate, type AirlineDb } from '../db.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { AIRLINE_ERRORS } from '../errors.js';

export default defineTool({
  name: 'get_flight_status',
  description:
    "The airline's own status of a flight on a date: 'available' (open for booking), 'on time', 'delayed', 'flying', " +
    "'landed' or 'cancelled'. This is the authoritative status for rebooking, cancellation and compensation.",
  input: z.strictObject({ flight_number: flightNumber, date: flightDate }),
  output: z.enum(FLIGHT_STATUSES).describe('The status string.'),
  errors: codesOf(AIRLINE_ERRORS, 'flight_not_found', 'flight_date_not_found'),
  mutates: false,
  example: { flight_number: 'HAT001', date: '2024-05-16' },
  run: ({ flight_number, date }, db: AirlineDb) => requireFlightDate(requireFlight(db, flight_number), date).status,
});
