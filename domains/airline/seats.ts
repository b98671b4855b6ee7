import { hasOwn } from '../../lib/own.js';
import { cloneJson } from '../../lib/clone.js';
import { foldForMatch } from '../../lib/text.js';
import { toolError } from '../errors.js';
import { AIRLINE_ERRORS } from './errors.js';
import type { AirlineDb } from './db.js';
import { cabinOfSeat as cabinInLayout, cabinSeats, SEAT_LAYOUT, seatMapKey } from './derive/seats.js';
import { CABINS, type Cabin, type Reservation, type SeatMap } from './schema.js';

// Seat maps: the cabin layouts of a flight on a date and who sits where, read and written
// by get_seat_map, assign_seat and check_in.

export type CabinLayout = SeatMap['cabins'][Cabin];

/** The flight date's seat map, or an empty one with the default layout (not written). */
export function seatMapOf(db: AirlineDb, flightNumber: string, date: string): SeatMap {
  return db.seat_maps.get(seatMapKey(flightNumber, date)) ?? emptySeatMap(flightNumber, date);
}

/** A flight date without a seat map has the default aircraft (derive.ts's SEAT_LAYOUT), nobody seated. */
function emptySeatMap(flightNumber: string, date: string): SeatMap {
  return { flight_number: flightNumber, date, cabins: cloneJson(SEAT_LAYOUT), assigned: {} };
}

/** A private copy of the flight date's seat map, created when absent; written when the call succeeds. */
export function editSeatMap(db: AirlineDb, flightNumber: string, date: string): SeatMap {
  const key = seatMapKey(flightNumber, date);
  const existing = db.seat_maps.edit(key);
  if (existing) return existing;
  const created = emptySeatMap(flightNumber, date);
  db.seat_maps.put(key, created);
  return created;
}

/** The cabins of a seat map in the order of their rows, front first. */
export function cabinsOf(map: SeatMap): [Cabin, CabinLayout][] {
  return CABINS.map((cabin): [Cabin, CabinLayout] => [cabin, map.cabins[cabin]]).sort((a, b) => a[1].rows[0] - b[1].rows[0]);
}

/** Every seat of a cabin of this map, front to back and left to right: "1A", "1C", … */
export const seatsOf = (map: SeatMap, cabin: Cabin): string[] => cabinSeats(cabin, map.cabins);

/** "12c " → "12C"; leading zeros dropped ("012C" → "12C"). */
export function normalizeSeat(seat: string): string {
  const match = /^\s*0*(\d{1,3})\s*([A-Za-z])\s*$/.exec(seat);
  return match ? `${match[1]}${match[2]!.toUpperCase()}` : seat.trim();
}

/** The cabin holding the seat, if the seat exists on this map. */
export const cabinOfSeat = (map: SeatMap, seat: string): Cabin | undefined => cabinInLayout(seat, map.cabins);

/** "rows 10-34, letters ABCDEF" */
export const describeLayout = (layout: CabinLayout): string => `rows ${layout.rows[0]}-${layout.rows[1]}, letters ${layout.letters}`;

/** Window seats are the outermost letters; aisle seats border the aisle in the middle (single-aisle layouts). */
export function seatKinds(layout: CabinLayout): { window: string; aisle: string } {
  const { letters } = layout;
  const half = Math.floor(letters.length / 2);
  return { window: `${letters[0]}${letters.at(-1)}`, aisle: letters.slice(half - 1, half + 1) };
}

type Name = { first_name: string; last_name: string };

/** The passenger of the reservation with this name (ignoring case, accents and surrounding spaces). */
export function requirePassenger(reservation: Reservation, firstName: string, lastName: string): Name {
  const first = foldForMatch(firstName);
  const last = foldForMatch(lastName);
  const found = reservation.passengers.find((p) => foldForMatch(p.first_name) === first && foldForMatch(p.last_name) === last);
  if (!found) {
    throw toolError(AIRLINE_ERRORS.passenger_not_found, `Passenger ${firstName} ${lastName} is not on reservation ${reservation.reservation_id}`);
  }
  return { first_name: found.first_name, last_name: found.last_name };
}

export const samePassenger = (a: Name, b: Name): boolean =>
  foldForMatch(a.first_name) === foldForMatch(b.first_name) && foldForMatch(a.last_name) === foldForMatch(b.last_name);

/** The seat the passenger of the reservation holds on this map, if any. */
export function seatOf(map: SeatMap, reservationId: string, passenger: Name): string | undefined {
  for (const [seat, holder] of Object.entries(map.assigned)) {
    if (holder.reservation_id === reservationId && samePassenger(holder.passenger, passenger)) return seat;
  }
  return undefined;
}

/** Free seats of a cabin, front to back. */
export function freeSeats(map: SeatMap, cabin: Cabin): string[] {
  return seatsOf(map, cabin).filter((seat) => !hasOwn(map.assigned, seat));
}

const seatOrder = (a: string, b: string): number => parseInt(a, 10) - parseInt(b, 10) || a.localeCompare(b);

/**
 * Seats the holder (and frees `previous`), keeping the map's seats in seat order as derive.ts writes them.
 * Built from entries, never by assigning a key, so that no seat name can reach Object.prototype.
 */
export function seatPassenger(map: SeatMap, seat: string, holder: SeatMap['assigned'][string], previous?: string): void {
  const kept = Object.entries(map.assigned).filter(([key]) => key !== previous && key !== seat);
  map.assigned = Object.fromEntries([...kept, [seat, holder] as const].sort(([a], [b]) => seatOrder(a, b)));
}

/** `count` free seats of a cabin, decided by the map alone: side by side in the frontmost row that has room, else the frontmost free ones. */
export function pickFreeSeats(map: SeatMap, cabin: Cabin, count: number): string[] {
  const free = freeSeats(map, cabin);
  const byRow = new Map<number, string[]>();
  for (const seat of free) byRow.set(parseInt(seat, 10), [...(byRow.get(parseInt(seat, 10)) ?? []), seat]);
  for (const seats of byRow.values()) if (seats.length >= count) return seats.slice(0, count);
  return free.slice(0, count);
}
