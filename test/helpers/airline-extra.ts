import type { Bag, CheckIn, Reservation, SeatMap, User } from '../../domains/airline/schema.js';
import { SEAT_LAYOUT } from '../../domains/airline/derive/seats.js';
import { airlineFixture, patchedAirlineBases } from './airline.js';
import { startServer, type TestServer } from './server.js';

// Shared by the tests of the six extra airline tools (get_flight_board, get_seat_map, assign_seat,
// check_in, get_boarding_pass, track_baggage).

interface Teardown {
  teardown(fn: () => unknown): void;
}

/** A server hosting the airline with its extra tools, on the fixture or on a patched copy of it. */
export async function startAirline(t: Teardown, patch?: Parameters<typeof patchedAirlineBases>[0]): Promise<TestServer> {
  return startServer(t, patch ? { bases: await patchedAirlineBases(patch) } : {});
}

/** ISO 8601 instant of an airline (Eastern, UTC−05:00) time "YYYY-MM-DDTHH:MM:SS". */
export const est = (value: string): string => `${value}-05:00`;

/** "YYYY-MM-DDTHH:MM:SS" Eastern of an epoch-milliseconds instant. */
export const estOf = (ms: number): string => new Date(ms - 5 * 3_600_000).toISOString().slice(0, 19);

/** Epoch milliseconds of an Eastern "YYYY-MM-DDTHH:MM:SS". */
export const estMs = (value: string): number => Date.parse(est(value));

/** A session whose clock stands still at this Eastern time. */
export const clockAt = (server: TestServer, estTime: string): Promise<string> => server.newSession({ clock: { start: est(estTime), step_ms: 0 } });

/** Scheduled departure of a flight on a date, Eastern "YYYY-MM-DDTHH:MM:SS" (arrival clocks may say "+1"). */
export function scheduledEst(date: string, clock: string): string {
  const ms = estMs(`${date}T${clock.slice(0, 8)}`) + (clock.endsWith('+1') ? 86_400_000 : 0);
  return estOf(ms);
}

/**
 * The wall clock of a US time zone in May 2024 (daylight time where observed), as the board
 * and the boarding pass write it: "2024-05-15T16:00:00-04:00".
 */
const MAY_OFFSETS: Record<string, number> = {
  'America/New_York': -4,
  'America/Detroit': -4,
  'America/Chicago': -5,
  'America/Denver': -6,
  'America/Phoenix': -7,
  'America/Los_Angeles': -7,
};
export function localOf(estTime: string, timeZone: string): string {
  const offset = MAY_OFFSETS[timeZone];
  if (offset === undefined) throw new Error(`no May offset known for ${timeZone}`);
  const wall = new Date(estMs(estTime) + offset * 3_600_000).toISOString().slice(0, 19);
  const sign = offset < 0 ? '-' : '+';
  return `${wall}${sign}${String(Math.abs(offset)).padStart(2, '0')}:00`;
}

export const seatMapKey = (flight: string, date: string) => `${flight}/${date}`;
export const checkInKey = (reservation: string, flight: string, date: string) => `${reservation}/${flight}/${date}`;

export const seatMapOf = (flight: string, date: string): SeatMap | undefined => airlineFixture().seat_maps[seatMapKey(flight, date)];
/** The fixture's seat map of a flight date, or the default aircraft with nobody seated when it has none. */
export const seatMapOrDefault = (flight: string, date: string): SeatMap =>
  seatMapOf(flight, date) ?? { flight_number: flight, date, cabins: structuredClone(SEAT_LAYOUT), assigned: {} };
export const checkInOf = (reservation: string, flight: string, date: string): CheckIn | undefined =>
  airlineFixture().check_ins[checkInKey(reservation, flight, date)];

/** Seats of a cabin layout, front to back. */
export function seatsOfLayout(layout: SeatMap['cabins'][keyof SeatMap['cabins']]): string[] {
  const seats: string[] = [];
  for (let row = layout.rows[0]; row <= layout.rows[1]; row++) for (const letter of layout.letters) seats.push(`${row}${letter}`);
  return seats;
}

/** A reservation's segment, with the fixture's status of that flight date. */
export interface Segment {
  reservation: Reservation;
  user: User;
  flight_number: string;
  date: string;
  status: string;
  departure: string;
}

/** Every segment of every reservation, in file order. */
export function* segments(): Generator<Segment> {
  const db = airlineFixture();
  for (const reservation of Object.values(db.reservations)) {
    for (const leg of reservation.flights) {
      const flight = db.flights[leg.flight_number]!;
      const instance = flight.dates[leg.date]!;
      yield {
        reservation,
        user: db.users[reservation.user_id]!,
        flight_number: leg.flight_number,
        date: leg.date,
        status: instance.status,
        departure: scheduledEst(leg.date, flight.scheduled_departure_time_est),
      };
    }
  }
}

export function findSegment(test: (segment: Segment) => boolean): Segment {
  for (const segment of segments()) if (test(segment)) return segment;
  throw new Error('no reservation segment in the fixture matches');
}

/** A seat held by someone on the flight date, if any. */
export const holderOf = (map: SeatMap | undefined, reservationId: string, name: { first_name: string; last_name: string }) =>
  Object.entries(map?.assigned ?? {}).find(
    ([, holder]) => holder.reservation_id === reservationId && holder.passenger.first_name === name.first_name && holder.passenger.last_name === name.last_name,
  )?.[0];

export const bagsOf = (reservationId: string): Bag[] =>
  Object.values(airlineFixture().bags)
    .filter((bag) => bag.reservation_id === reservationId)
    .sort((a, b) => a.tag.localeCompare(b.tag));

export const isActive = (reservation: Reservation) => reservation.status !== 'cancelled';
