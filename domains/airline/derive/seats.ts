import { Random } from '../../../lib/random.js';
import { CABINS, type AirlineDatabase, type Cabin, type FlightDateStatus, type Reservation, type SeatMap } from '../schema.js';

// Seats: the cabin layout, and the seat maps of the flight dates still to leave.

/** The cabin layout of every aircraft: business rows 1–4 ACDF, economy 10–30 and basic economy 31–38 ABCDEF. */
export const SEAT_LAYOUT: SeatMap['cabins'] = {
  business: { rows: [1, 4], letters: 'ACDF' },
  economy: { rows: [10, 30], letters: 'ABCDEF' },
  basic_economy: { rows: [31, 38], letters: 'ABCDEF' },
};

/** Seats of a cabin, front to back ("1A", "1C", …). */
export function cabinSeats(cabin: Cabin, layout: SeatMap['cabins'] = SEAT_LAYOUT): string[] {
  const {
    rows: [first, last],
    letters,
  } = layout[cabin];
  const seats: string[] = [];
  for (let row = first; row <= last; row++) for (const letter of letters) seats.push(`${row}${letter}`);
  return seats;
}

export const CABIN_CAPACITY: Readonly<Record<Cabin, number>> = {
  business: cabinSeats('business').length,
  economy: cabinSeats('economy').length,
  basic_economy: cabinSeats('basic_economy').length,
};

/** The cabin a seat ("12C") belongs to in a layout, if any. */
export function cabinOfSeat(seat: string, layout: SeatMap['cabins'] = SEAT_LAYOUT): Cabin | undefined {
  const match = /^(\d+)([A-Z])$/.exec(seat);
  if (!match) return undefined;
  const row = Number(match[1]);
  return CABINS.find((cabin) => {
    const {
      rows: [first, last],
      letters,
    } = layout[cabin];
    return row >= first && row <= last && letters.includes(match[2] as string);
  });
}

/** Flight dates with these statuses have a seat map (the flight has not left and is not cancelled). */
export const SEAT_MAP_STATUSES: ReadonlySet<FlightDateStatus['status']> = new Set(['available', 'on time', 'delayed']);

export const seatMapKey = (flightNumber: string, date: string): string => `${flightNumber}/${date}`;

function seatOrder(a: string, b: string): number {
  return parseInt(a, 10) - parseInt(b, 10) || a.localeCompare(b);
}

/** `count` free seats of a cabin, side by side in one row when possible. */
export function pickSeats(rng: Random, cabin: Cabin, taken: ReadonlySet<string>, count: number): string[] {
  const {
    rows: [first, last],
    letters,
  } = SEAT_LAYOUT[cabin];
  const rows = last - first + 1;
  const start = rng.int(0, rows - 1);
  for (let k = 0; k < rows; k++) {
    const row = first + ((start + k) % rows);
    const free = [...letters].map((letter) => `${row}${letter}`).filter((seat) => !taken.has(seat));
    if (free.length >= count) {
      const offset = rng.int(0, free.length - count);
      return free.slice(offset, offset + count);
    }
  }
  return rng.sample(
    cabinSeats(cabin).filter((seat) => !taken.has(seat)),
    count,
  );
}

/** One booking of a flight date: who flies in which cabin. */
interface Booking {
  readonly reservation: Reservation;
  readonly cabin: Cabin;
}

/** Non-cancelled reservations per "FLIGHT/DATE", in file order. */
function bookingsByFlightDate(reservations: Record<string, Reservation>): Map<string, Booking[]> {
  const bookings = new Map<string, Booking[]>();
  for (const reservation of Object.values(reservations)) {
    if (reservation.status === 'cancelled') continue;
    for (const leg of reservation.flights) {
      const key = seatMapKey(leg.flight_number, leg.date);
      const list = bookings.get(key) ?? [];
      if (!list.some((b) => b.reservation === reservation)) list.push({ reservation, cabin: reservation.cabin });
      bookings.set(key, list);
    }
  }
  return bookings;
}

export function sortAssigned(map: SeatMap): void {
  const sorted = Object.keys(map.assigned).sort(seatOrder);
  map.assigned = Object.fromEntries(sorted.map((seat) => [seat, map.assigned[seat]!]));
}

function deriveSeatMap(flightNumber: string, date: string, bookings: readonly Booking[], seed: string): SeatMap {
  const key = seatMapKey(flightNumber, date);
  const rng = new Random(`${seed}:seats:${key}`);
  const taken = new Set<string>();
  const map: SeatMap = { flight_number: flightNumber, date, cabins: structuredClone(SEAT_LAYOUT), assigned: {} };
  for (const { reservation, cabin } of bookings) {
    if (!rng.bool(0.45)) continue;
    const seats = pickSeats(rng, cabin, taken, reservation.passengers.length);
    seats.forEach((seat, i) => {
      const { first_name, last_name } = reservation.passengers[i]!;
      taken.add(seat);
      map.assigned[seat] = { reservation_id: reservation.reservation_id, passenger: { first_name, last_name } };
    });
  }
  sortAssigned(map);
  return map;
}

/**
 * Seat maps of the flight dates that have not left and are not cancelled, where some booked
 * passengers hold seats. A flight date without a map has the default layout with nobody seated
 * (keeping the file small: most of the 4,500 bookable flight dates have no seat holder).
 */
export function deriveSeatMaps(db: Pick<AirlineDatabase, 'flights' | 'reservations'>, seed: string): Record<string, SeatMap> {
  const bookings = bookingsByFlightDate(db.reservations);
  const maps: Record<string, SeatMap> = {};
  for (const flight of Object.values(db.flights)) {
    for (const [date, status] of Object.entries(flight.dates)) {
      const key = seatMapKey(flight.flight_number, date);
      const booked = bookings.get(key);
      if (!booked || !SEAT_MAP_STATUSES.has(status.status)) continue;
      const map = deriveSeatMap(flight.flight_number, date, booked, seed);
      if (Object.keys(map.assigned).length > 0) maps[key] = map;
    }
  }
  return maps;
}

export const emptySeatMap = (flightNumber: string, date: string): SeatMap => ({
  flight_number: flightNumber,
  date,
  cabins: structuredClone(SEAT_LAYOUT),
  assigned: {},
});
