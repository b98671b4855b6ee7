import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { toolError } from '../../errors.js';
import { AIRLINE_ERRORS } from '../errors.js';
import { flightDate, flightNumber, reservationId } from '../fields.js';
import type { AirlineDb } from '../db.js';
import { checkInKey } from '../derive/check-ins.js';
import { Cabin, CheckIn } from '../schema.js';
import {
  boardingGroup,
  CHECK_IN_CLOSES_BEFORE_MS,
  CHECK_IN_OPENS_BEFORE_MS,
  instanceOf,
  requireNotDeparted,
  requireReservedFlight,
  toEst,
} from '../operations.js';
import { editSeatMap, pickFreeSeats, seatMapOf, seatOf, seatPassenger } from '../seats.js';
import { codesOf } from '../../../lib/error-catalog.js';

/** The highest boarding sequence number given so far on a flight date (0 when nobody checked in). */
function lastSequence(db: AirlineDb, flightNumber: string, date: string): number {
  let last = 0;
  for (const checkIn of db.check_ins.values()) {
    if (checkIn.flight_number !== flightNumber || checkIn.date !== date) continue;
    for (const passenger of checkIn.passengers) last = Math.max(last, passenger.sequence);
  }
  return last;
}

export default defineTool({
  name: 'check_in',
  description:
    'Check in every passenger of a reservation for one of its flights. Check-in opens 24 hours before the scheduled ' +
    'departure and closes 45 minutes before it (Eastern time); outside that window, or for a cancelled reservation or ' +
    'flight, it fails and says when the window opens or closed. Passengers without a seat get free seats in the ' +
    "reservation's cabin, side by side when possible. Each passenger gets a boarding group (1 business, 2 gold " +
    'members, 3 silver members, 4 economy, 5 basic economy, 6 no seat yet: seated at the gate) and a sequence number. ' +
    'Confirm with the customer first. Returns the check-in; get_boarding_pass then gives each boarding pass.',
  input: z.strictObject({ reservation_id: reservationId, flight_number: flightNumber, date: flightDate }),
  output: CheckIn.extend({ cabin: Cabin, origin: z.string(), destination: z.string() }),
  errors: codesOf(
    AIRLINE_ERRORS,
    'reservation_not_found',
    'flight_not_found',
    'flight_date_not_found',
    'flight_not_in_reservation',
    'reservation_cancelled',
    'flight_cancelled',
    'flight_departed',
    'flight_landed',
    'already_checked_in',
    'check_in_not_open',
    'check_in_closed',
  ),
  mutates: true,
  effect: { destructive: false, idempotent: true },
  // A flight of the next morning: its check-in is open at the default clock's start (2024-05-15 15:00 EST).
  example: { reservation_id: '1PR0AU', flight_number: 'HAT292', date: '2024-05-16' },
  run({ reservation_id, flight_number, date }, db: AirlineDb, ctx) {
    const { reservation, flight, instance } = requireReservedFlight(db, reservation_id, flight_number, date);
    const key = checkInKey(reservation.reservation_id, flight.flight_number, date);
    const name = `flight ${flight.flight_number} on ${date}`;
    if (db.check_ins.has(key))
      throw toolError(AIRLINE_ERRORS.already_checked_in, `Reservation ${reservation.reservation_id} is already checked in for ${name}`);

    const now = ctx.now();
    const scheduled = instanceOf(flight, date, instance);
    requireNotDeparted(scheduled, now);
    const departure = scheduled.times.scheduledDeparture.getTime();
    const opens = toEst(new Date(departure - CHECK_IN_OPENS_BEFORE_MS));
    const closes = toEst(new Date(departure - CHECK_IN_CLOSES_BEFORE_MS));
    const window = { opens_at: opens, closes_at: closes };
    if (now.getTime() < departure - CHECK_IN_OPENS_BEFORE_MS) {
      throw toolError(AIRLINE_ERRORS.check_in_not_open, `Check-in for ${name} opens at ${opens} EST, 24 hours before the scheduled departure`, {
        extra: window,
      });
    }
    if (now.getTime() >= departure - CHECK_IN_CLOSES_BEFORE_MS) {
      throw toolError(AIRLINE_ERRORS.check_in_closed, `Check-in for ${name} closed at ${closes} EST, 45 minutes before the scheduled departure`, {
        extra: window,
      });
    }

    const current = seatMapOf(db, flight.flight_number, date);
    const held = reservation.passengers.map((p) => seatOf(current, reservation.reservation_id, p) ?? null);
    const given = pickFreeSeats(current, reservation.cabin, held.filter((seat) => seat === null).length);
    const membership = db.users.get(reservation.user_id)?.membership;
    let sequence = lastSequence(db, flight.flight_number, date);
    let next = 0;
    const passengers = reservation.passengers.map(({ first_name, last_name }, i) => {
      const seat = held[i] ?? given[next++] ?? null;
      return { first_name, last_name, seat, boarding_group: boardingGroup(reservation.cabin, membership, seat), sequence: ++sequence };
    });
    if (given.length > 0) {
      const map = editSeatMap(db, flight.flight_number, date);
      passengers.forEach(({ first_name, last_name, seat }, i) => {
        if (held[i] === null && seat !== null) seatPassenger(map, seat, { reservation_id: reservation.reservation_id, passenger: { first_name, last_name } });
      });
    }
    const record = {
      reservation_id: reservation.reservation_id,
      flight_number: flight.flight_number,
      date,
      checked_in_at: toEst(now),
      passengers,
    };
    db.check_ins.put(key, record);
    return {
      ...record,
      passengers: record.passengers.map((p) => ({ ...p })),
      cabin: reservation.cabin,
      origin: flight.origin,
      destination: flight.destination,
    };
  },
});
