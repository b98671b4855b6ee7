import { hash32 } from '../../lib/random.js';
import { formatLocal, HOUR, MINUTE } from '../../lib/time.js';
import { toolError } from '../errors.js';
import { AIRLINE_ERRORS } from './errors.js';
import { type AirlineDb, requireFlight, requireFlightDate, requireReservation } from './db.js';
import type { Cabin, Flight, FlightDateStatus, Reservation, User } from './schema.js';

// What happens to a flight on a date at the airport, as the session clock sees it: the times of
// the flight instance, where it stands (boarding, departed, landed), its gate and terminal.
// Shared by the board, seat, check-in and boarding-pass tools, so they always agree.

/** The airline's "EST": a fixed UTC−05:00 (the session clock's default start, 15:00 EST, is 20:00 UTC). */
export const EST_OFFSET = '-05:00';
const EST_OFFSET_MS = 5 * 3_600_000;

/** Boarding starts this long before departure. */
export const BOARDING_BEFORE_MS = 40 * MINUTE;
/** Check-in opens this long before the scheduled departure… */
export const CHECK_IN_OPENS_BEFORE_MS = 24 * HOUR;
/** …and closes this long before it. */
export const CHECK_IN_CLOSES_BEFORE_MS = 45 * MINUTE;

/** The instant of an airline time "YYYY-MM-DDTHH:MM:SS" (Eastern). */
export function fromEst(value: string): Date {
  return new Date(`${value}${EST_OFFSET}`);
}

/** An instant as the airline writes it: "YYYY-MM-DDTHH:MM:SS", Eastern. */
export function toEst(at: Date): string {
  return new Date(at.getTime() - EST_OFFSET_MS).toISOString().slice(0, 19);
}

/** The instant of a flight's clock time ("HH:MM:SS", maybe "+1") on its departure date. */
export function onDate(date: string, clock: string): Date {
  const nextDay = clock.endsWith('+1');
  const at = fromEst(`${date}T${clock.slice(0, 8)}`);
  return nextDay ? new Date(at.getTime() + 24 * HOUR) : at;
}

/** An instant as the wall clock of `timeZone` shows it, ISO 8601 with the offset: "2024-05-15T16:00:00-04:00". */
export const localTime = (at: Date, timeZone: string): string => formatLocal(timeZone, at.getTime());

/** The IANA time zone of an airport: from the airports table, else Eastern. */
export function timeZoneOf(db: AirlineDb, iata: string): string {
  return db.airports.get(iata)?.timezone ?? 'America/New_York';
}

/** Every time known of one flight on one date. */
export interface FlightTimes {
  scheduledDeparture: Date;
  scheduledArrival: Date;
  estimatedDeparture?: Date;
  estimatedArrival?: Date;
  actualDeparture?: Date;
  actualArrival?: Date;
}

export function flightTimes(flight: Flight, date: string, instance: FlightDateStatus): FlightTimes {
  const times: FlightTimes = {
    scheduledDeparture: onDate(date, flight.scheduled_departure_time_est),
    scheduledArrival: onDate(date, flight.scheduled_arrival_time_est),
  };
  if ('estimated_departure_time_est' in instance) times.estimatedDeparture = fromEst(instance.estimated_departure_time_est);
  if ('estimated_arrival_time_est' in instance) times.estimatedArrival = fromEst(instance.estimated_arrival_time_est);
  if ('actual_departure_time_est' in instance) times.actualDeparture = fromEst(instance.actual_departure_time_est);
  if ('actual_arrival_time_est' in instance) times.actualArrival = fromEst(instance.actual_arrival_time_est);
  return times;
}

/** The best-known departure: actual, else estimated, else scheduled. */
export const departureOf = (times: FlightTimes): Date => times.actualDeparture ?? times.estimatedDeparture ?? times.scheduledDeparture;
/** The best-known arrival: actual, else estimated, else scheduled. */
export const arrivalOf = (times: FlightTimes): Date => times.actualArrival ?? times.estimatedArrival ?? times.scheduledArrival;

export type Phase = 'cancelled' | 'scheduled' | 'boarding' | 'departed' | 'landed';

/**
 * Where the flight stands at `now`. The airline's final words (cancelled, landed) stand;
 * otherwise the session clock moves the flight along its best-known times: boarding from
 * 40 minutes before departure, departed once past it, landed once past the arrival.
 */
export function phaseAt(instance: FlightDateStatus, times: FlightTimes, now: Date): Phase {
  if (instance.status === 'cancelled') return 'cancelled';
  if (instance.status === 'landed') return 'landed';
  const t = now.getTime();
  if (t > arrivalOf(times).getTime()) return 'landed';
  if (instance.status === 'flying') return 'departed';
  const departure = departureOf(times).getTime();
  if (t > departure) return 'departed';
  return t >= departure - BOARDING_BEFORE_MS ? 'boarding' : 'scheduled';
}

/** A flight on a date, with its times, looked up by the flight table's own key. */
export interface FlightInstance {
  flight: Flight;
  date: string;
  instance: FlightDateStatus;
  times: FlightTimes;
}

export function instanceOf(flight: Flight, date: string, instance: FlightDateStatus): FlightInstance {
  return { flight, date, instance, times: flightTimes(flight, date, instance) };
}

/** Throws 409 when the flight is cancelled, or has departed or landed at `now`. */
export function requireNotDeparted({ flight, date, instance, times }: FlightInstance, now: Date): Phase {
  const phase = phaseAt(instance, times, now);
  const name = `Flight ${flight.flight_number} on ${date}`;
  if (phase === 'cancelled') throw toolError(AIRLINE_ERRORS.flight_cancelled, `${name} is cancelled`);
  if (phase === 'departed') throw toolError(AIRLINE_ERRORS.flight_departed, `${name} has already departed`);
  if (phase === 'landed') throw toolError(AIRLINE_ERRORS.flight_landed, `${name} has already landed`);
  return phase;
}

const GATE_LETTERS = 'ABCDE';
/** Terminal of each concourse letter. */
const TERMINALS: Record<string, string> = { A: '1', B: '1', C: '2', D: '2', E: '3' };

/** The gate and terminal of a flight on a date at one of its two airports; the same on every call. */
export function gateOf(flightNumber: string, date: string, airport: string): { gate: string; terminal: string } {
  const h = hash32('gate', flightNumber, date, airport);
  const letter = GATE_LETTERS[h % GATE_LETTERS.length]!;
  return { gate: `${letter}${1 + ((h >>> 8) % 30)}`, terminal: TERMINALS[letter]! };
}

/** Throws 409 when the reservation is cancelled. */
export function requireActive(reservation: Reservation): void {
  if (reservation.status === 'cancelled') {
    throw toolError(AIRLINE_ERRORS.reservation_cancelled, `Reservation ${reservation.reservation_id} is cancelled`);
  }
}

/** Throws 404 unless the reservation flies this flight (canonical number) on this date. */
export function requireSegment(reservation: Reservation, flightNumber: string, date: string): void {
  if (!reservation.flights.some((segment) => segment.flight_number === flightNumber && segment.date === date)) {
    throw toolError(AIRLINE_ERRORS.flight_not_in_reservation, `Flight ${flightNumber} on ${date} is not part of reservation ${reservation.reservation_id}`);
  }
}

/**
 * A flight of a reservation, as the airport tools take it (seats, check-in, boarding passes): the reservation exists
 * and is not cancelled, the flight flies on that date, and it is one of the reservation's segments (checked in that order).
 */
export function requireReservedFlight(
  db: AirlineDb,
  reservationId: string,
  flightNumber: string,
  date: string,
): { reservation: Reservation; flight: Flight; instance: FlightDateStatus } {
  const reservation = requireReservation(db, reservationId);
  requireActive(reservation);
  const flight = requireFlight(db, flightNumber);
  const instance = requireFlightDate(flight, date);
  requireSegment(reservation, flight.flight_number, date);
  return { reservation, flight, instance };
}

/**
 * Boarding group at check-in: 1 business, 2 gold members, 3 silver members, then 4 economy,
 * 5 basic economy, and 6 for a passenger still without a seat (seated at the gate).
 */
export function boardingGroup(cabin: Cabin, membership: User['membership'] | undefined, seat: string | null): number {
  if (cabin === 'business') return 1;
  if (membership === 'gold') return 2;
  if (membership === 'silver') return 3;
  if (seat === null) return 6;
  return cabin === 'economy' ? 4 : 5;
}
