import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { toolError } from '../../errors.js';
import { AIRLINE_ERRORS } from '../errors.js';
import { own } from '../../../lib/own.js';
import { passengerOnFlight } from '../fields.js';
import type { AirlineDb } from '../db.js';
import { checkInKey } from '../derive/check-ins.js';
import { Cabin, Name } from '../schema.js';
import { boardingGroup, instanceOf, requireNotDeparted, requireReservedFlight } from '../operations.js';
import { cabinOfSeat, describeLayout, editSeatMap, normalizeSeat, requirePassenger, samePassenger, seatMapOf, seatOf, seatPassenger } from '../seats.js';
import { codesOf } from '../../../lib/error-catalog.js';

export default defineTool({
  name: 'assign_seat',
  description:
    "Give a passenger of a reservation a seat on one of the reservation's flights. The seat must be free and in the " +
    "reservation's cabin (see get_seat_map); a passenger who already had a seat on that flight moves, and the old seat " +
    'is freed. Not possible once the flight has departed, nor for a cancelled reservation or flight. Confirm the seat ' +
    'with the customer first. Returns the assignment.',
  input: z.strictObject({
    ...passengerOnFlight,
    seat: z.string().min(1).describe("Row and letter, e.g. '12C'."),
  }),
  output: z.object({
    reservation_id: z.string(),
    flight_number: z.string(),
    date: z.string(),
    passenger: Name,
    cabin: Cabin,
    seat: z.string(),
    previous_seat: z.string().nullable().describe('The seat the passenger held before on this flight, if any.'),
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
    'flight_departed',
    'flight_landed',
    'seat_taken',
    'seat_not_found',
    'seat_not_in_cabin',
  ),
  mutates: true,
  effect: { destructive: true, idempotent: true },
  example: { reservation_id: 'S0Q246', flight_number: 'HAT143', date: '2024-05-21', first_name: 'Kwame', last_name: 'Akana', seat: '10A' },
  run({ reservation_id, flight_number, date, first_name, last_name, seat }, db: AirlineDb, ctx) {
    const { reservation, flight, instance } = requireReservedFlight(db, reservation_id, flight_number, date);
    const passenger = requirePassenger(reservation, first_name, last_name);
    requireNotDeparted(instanceOf(flight, date, instance), ctx.now());

    const wanted = normalizeSeat(seat);
    const current = seatMapOf(db, flight.flight_number, date);
    const seatCabin = cabinOfSeat(current, wanted);
    if (seatCabin === undefined) throw toolError(AIRLINE_ERRORS.seat_not_found, `Seat ${wanted} does not exist on flight ${flight.flight_number}`);
    if (seatCabin !== reservation.cabin) {
      throw toolError(
        AIRLINE_ERRORS.seat_not_in_cabin,
        `Seat ${wanted} is in the ${seatCabin} cabin; reservation ${reservation.reservation_id} flies ${reservation.cabin} ` +
          `(${describeLayout(current.cabins[reservation.cabin])})`,
      );
    }
    const holder = own(current.assigned, wanted);
    const mine = holder !== undefined && holder.reservation_id === reservation.reservation_id && samePassenger(holder.passenger, passenger);
    if (holder !== undefined && !mine) throw toolError(AIRLINE_ERRORS.seat_taken, `Seat ${wanted} is already taken`);

    const previous = seatOf(current, reservation.reservation_id, passenger);
    if (!mine) {
      seatPassenger(editSeatMap(db, flight.flight_number, date), wanted, { reservation_id: reservation.reservation_id, passenger }, previous);
      // A checked-in passenger's boarding pass follows the new seat; one seated at the gate gets a group of a seat.
      const key = checkInKey(reservation.reservation_id, flight.flight_number, date);
      const index = db.check_ins.get(key)?.passengers.findIndex((p) => samePassenger(p, passenger)) ?? -1;
      if (index >= 0) {
        const boarding = db.check_ins.edit(key)!.passengers[index]!;
        if (boarding.seat === null) boarding.boarding_group = boardingGroup(reservation.cabin, db.users.get(reservation.user_id)?.membership, wanted);
        boarding.seat = wanted;
      }
    }
    return {
      reservation_id: reservation.reservation_id,
      flight_number: flight.flight_number,
      date,
      passenger,
      cabin: reservation.cabin,
      seat: wanted,
      previous_seat: previous ?? null,
    };
  },
});
