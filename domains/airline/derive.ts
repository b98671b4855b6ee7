import { hasOwn, own } from '../../lib/own.js';
import { AIRPORT_BY_CODE } from '../../fixtures/generator/airline-catalog.js';
import { boardingGroup } from './operations.js';
import { Random } from '../../lib/random.js';
import { DAY, HOUR, MINUTE } from '../../lib/time.js';
import {
  AIRLINE_NOW_EST,
  CABINS,
  type AirlineDatabase,
  type Airport,
  type Bag,
  type Cabin,
  type CheckIn,
  type Flight,
  type FlightDateStatus,
  type Reservation,
  type SeatMap,
  type User,
} from './schema.js';

// Fills the tables our extra tools need (airports, seat maps, check-ins, bags) from a file's own
// flights and reservations, so a tau2-bench db.json works as well as our generated fixture.
// Every record is decided by (seed, its key): the same file always completes the same way.

/** Seed of the derivations for files that come without our extra tables. */
export const DERIVATION_SEED = 'wildtools-airline';

// ---- time: every "_est" value is a naive Eastern wall-clock time; we count it as if it were UTC ----

/** Milliseconds of a "YYYY-MM-DDTHH:MM:SS" (or "YYYY-MM-DD") Eastern time, on a naive clock. */
export function estMs(value: string): number {
  return Date.parse(value.length === 10 ? `${value}T00:00:00Z` : `${value}Z`);
}

/** "YYYY-MM-DDTHH:MM:SS" of a naive-clock time. */
export function estText(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

/** tau2-bench's "now", 2024-05-15T15:00:00 Eastern, on the naive clock. */
export const AIRLINE_NOW = estMs(AIRLINE_NOW_EST);

/** Minutes after midnight of a "HH:MM:SS" clock time; "+1" adds a day. */
export function clockMinutes(time: string): number {
  const [h = 0, m = 0, s = 0] = time.slice(0, 8).split(':').map(Number);
  return h * 60 + m + s / 60 + (time.endsWith('+1') ? 24 * 60 : 0);
}

export function scheduledDeparture(flight: Flight, date: string): number {
  return estMs(date) + clockMinutes(flight.scheduled_departure_time_est) * MINUTE;
}

export function scheduledArrival(flight: Flight, date: string): number {
  const arrival = estMs(date) + clockMinutes(flight.scheduled_arrival_time_est) * MINUTE;
  // A file whose arrival clock is before departure without "+1" still lands after it took off.
  return arrival > scheduledDeparture(flight, date) ? arrival : arrival + DAY;
}

/** When the flight leaves on that date: actual, else estimated, else scheduled; undefined when cancelled. */
export function departureTime(flight: Flight, date: string, status: FlightDateStatus): number | undefined {
  switch (status.status) {
    case 'cancelled':
      return undefined;
    case 'flying':
    case 'landed':
      return estMs(status.actual_departure_time_est);
    case 'on time':
    case 'delayed':
      return estMs(status.estimated_departure_time_est);
    case 'available':
      return scheduledDeparture(flight, date);
  }
}

/** When the flight arrives on that date: actual, else estimated, else scheduled; undefined when cancelled. */
export function arrivalTime(flight: Flight, date: string, status: FlightDateStatus): number | undefined {
  switch (status.status) {
    case 'cancelled':
      return undefined;
    case 'landed':
      return estMs(status.actual_arrival_time_est);
    case 'flying':
    case 'on time':
    case 'delayed':
      return estMs(status.estimated_arrival_time_est);
    case 'available':
      return scheduledArrival(flight, date);
  }
}

// ---- seats ----

/** The cabin layout of every aircraft: business rows 1–4 ACDF, economy 10–30 and basic economy 31–38 ABCDEF. */
export const SEAT_LAYOUT: SeatMap['cabins'] = {
  business: { rows: [1, 4], letters: 'ACDF' },
  economy: { rows: [10, 30], letters: 'ABCDEF' },
  basic_economy: { rows: [31, 38], letters: 'ABCDEF' },
};

/** Seats of a cabin, front to back ("1A", "1C", …). */
export function cabinSeats(cabin: Cabin, layout: SeatMap['cabins'] = SEAT_LAYOUT): string[] {
  const { rows: [first, last], letters } = layout[cabin];
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
    const { rows: [first, last], letters } = layout[cabin];
    return row >= first && row <= last && letters.includes(match[2] as string);
  });
}

/** Flight dates with these statuses have a seat map (the flight has not left and is not cancelled). */
export const SEAT_MAP_STATUSES: ReadonlySet<FlightDateStatus['status']> = new Set(['available', 'on time', 'delayed']);

export const seatMapKey = (flightNumber: string, date: string): string => `${flightNumber}/${date}`;
export const checkInKey = (reservationId: string, flightNumber: string, date: string): string => `${reservationId}/${flightNumber}/${date}`;

function seatOrder(a: string, b: string): number {
  return parseInt(a, 10) - parseInt(b, 10) || a.localeCompare(b);
}

/** `count` free seats of a cabin, side by side in one row when possible. */
function pickSeats(rng: Random, cabin: Cabin, taken: ReadonlySet<string>, count: number): string[] {
  const { rows: [first, last], letters } = SEAT_LAYOUT[cabin];
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
  return rng.sample(cabinSeats(cabin).filter((seat) => !taken.has(seat)), count);
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

function sortAssigned(map: SeatMap): void {
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

const emptySeatMap = (flightNumber: string, date: string): SeatMap => ({
  flight_number: flightNumber,
  date,
  cabins: structuredClone(SEAT_LAYOUT),
  assigned: {},
});

// ---- airports ----

/** Every airport the flights serve, from our catalog; a code we do not know is its own city. */
export function deriveAirports(flights: Record<string, Flight>): Record<string, Airport> {
  const codes = new Set<string>();
  for (const flight of Object.values(flights)) codes.add(flight.origin).add(flight.destination);
  const airports: Record<string, Airport> = {};
  for (const code of [...codes].sort()) {
    if (!/^[A-Z]{3}$/.test(code)) continue;
    const known = AIRPORT_BY_CODE.get(code);
    airports[code] = known
      ? { iata: code, city: known.city, name: known.name, timezone: known.timezone }
      : { iata: code, city: code, name: `${code} Airport`, timezone: 'America/New_York' };
  }
  return airports;
}

// ---- check-ins ----

const CHECK_IN_OPENS = 24 * HOUR;
const CHECK_IN_CLOSES = 45 * MINUTE;

/**
 * Check-ins of reservations whose flight leaves within 24 hours of now, either way: most
 * passengers of flights that already left were checked in, some of those leaving in the next day.
 * Passengers get the seat they hold on the seat map, or one is assigned (and added to the map);
 * basic-economy passengers of flights still to come may have none yet.
 */
export function deriveCheckIns(
  db: Pick<AirlineDatabase, 'flights' | 'users' | 'reservations'>,
  seatMaps: Record<string, SeatMap>,
  seed: string,
): Record<string, CheckIn> {
  const checkIns: Record<string, CheckIn> = {};
  const usedSeats = new Map<string, Set<string>>();
  for (const reservation of Object.values(db.reservations)) {
    if (reservation.status === 'cancelled') continue;
    const rng = new Random(`${seed}:checkin:${reservation.reservation_id}`);
    const membership = own(db.users, reservation.user_id)?.membership;
    for (const leg of reservation.flights) {
      const flight = own(db.flights, leg.flight_number);
      const status = flight && own(flight.dates, leg.date);
      if (!flight || !status) continue;
      const departure = departureTime(flight, leg.date, status);
      if (departure === undefined || Math.abs(departure - AIRLINE_NOW) > CHECK_IN_OPENS) continue;
      const departed = departure <= AIRLINE_NOW;
      if (!rng.bool(departed ? 0.9 : 0.45)) continue;
      const opens = departure - CHECK_IN_OPENS;
      const latest = Math.min(AIRLINE_NOW, departure - CHECK_IN_CLOSES);
      const span = Math.floor((latest - opens) / MINUTE);
      if (span < 1) continue;
      const at = opens + rng.int(0, span - 1) * MINUTE + rng.int(0, 59) * 1000;

      // Flights still to leave keep their seats on the seat map; for those that left we only
      // remember which seats were given.
      const key = seatMapKey(leg.flight_number, leg.date);
      const mapped = !departed && SEAT_MAP_STATUSES.has(status.status);
      const map = own(seatMaps, key);
      const taken = map ? new Set(Object.keys(map.assigned)) : (usedSeats.get(key) ?? new Set<string>());
      usedSeats.set(key, taken);
      const passengers = reservation.passengers.map(({ first_name, last_name }) => {
        let seat: string | null =
          Object.entries(map?.assigned ?? {}).find(
            ([, a]) => a.reservation_id === reservation.reservation_id && a.passenger.first_name === first_name && a.passenger.last_name === last_name,
          )?.[0] ?? null;
        if (seat === null && (departed || reservation.cabin !== 'basic_economy' || rng.bool(0.6))) {
          seat = pickSeats(rng, reservation.cabin, taken, 1)[0] ?? null;
          if (seat !== null) {
            taken.add(seat);
            if (mapped) {
              const target = own(seatMaps, key) ?? (seatMaps[key] = emptySeatMap(leg.flight_number, leg.date));
              target.assigned[seat] = { reservation_id: reservation.reservation_id, passenger: { first_name, last_name } };
            }
          }
        }
        return { first_name, last_name, seat, boarding_group: boardingGroup(reservation.cabin, membership, seat), sequence: 0 };
      });
      const filled = own(seatMaps, key);
      if (filled) sortAssigned(filled);
      checkIns[checkInKey(reservation.reservation_id, leg.flight_number, leg.date)] = {
        reservation_id: reservation.reservation_id,
        flight_number: leg.flight_number,
        date: leg.date,
        checked_in_at: estText(at),
        passengers,
      };
    }
  }
  numberCheckIns(checkIns, seed);
  return checkIns;
}

/** Boarding-pass sequence numbers per flight date, in check-in order (others checked in between). */
function numberCheckIns(checkIns: Record<string, CheckIn>, seed: string): void {
  const byFlight = new Map<string, [string, CheckIn][]>();
  for (const entry of Object.entries(checkIns)) {
    const key = seatMapKey(entry[1].flight_number, entry[1].date);
    byFlight.set(key, [...(byFlight.get(key) ?? []), entry]);
  }
  for (const [key, entries] of byFlight) {
    const rng = new Random(`${seed}:sequence:${key}`);
    let sequence = rng.int(1, 30);
    entries.sort(([ka, a], [kb, b]) => a.checked_in_at.localeCompare(b.checked_in_at) || ka.localeCompare(kb));
    for (const [, checkIn] of entries) {
      for (const passenger of checkIn.passengers) {
        passenger.sequence = sequence;
        sequence += rng.int(1, 6);
      }
    }
  }
}

// ---- bags ----

/** Bags are tracked for journeys that left in the last 48 hours, or leave within 4 hours and are checked in. */
const BAGS_SINCE = 48 * HOUR;
const BAG_DROP_OPENS = 4 * HOUR;

/** The legs of each direction: outbound up to the reservation's destination, then the way back. */
export function journeys(reservation: Reservation): Reservation['flights'][] {
  const legs = reservation.flights;
  if (reservation.flight_type === 'round_trip') {
    const turn = legs.findIndex((leg) => leg.destination === reservation.destination);
    if (turn >= 0 && turn < legs.length - 1) return [legs.slice(0, turn + 1), legs.slice(turn + 1)];
  }
  return legs.length > 0 ? [legs] : [];
}

interface Leg {
  readonly flight_number: string;
  readonly origin: string;
  readonly destination: string;
  readonly status: FlightDateStatus['status'];
  /** Actual or expected times; undefined when cancelled. */
  readonly departure: number | undefined;
  readonly arrival: number | undefined;
}

type BagEvent = Bag['events'][number];

/** A timeline that never goes back and never passes now. */
class Timeline {
  readonly events: BagEvent[] = [];
  private last = -Infinity;

  add(at: number, location: string, status: BagEvent['status'], description: string): void {
    const time = Math.min(AIRLINE_NOW, Math.max(this.last, at));
    this.last = time;
    this.events.push({ at: estText(time), location, status, description });
  }

  get lastAt(): number {
    return this.last;
  }
}

function bagEvents(rng: Random, legs: readonly Leg[], checkedAt: number): BagEvent[] {
  const final = legs[legs.length - 1]!.destination;
  const timeline = new Timeline();
  timeline.add(checkedAt, legs[0]!.origin, 'checked', `Checked at ${legs[0]!.origin} bag drop, tagged to ${final}`);
  // A few bags do not make one of the flights that landed and stay behind where it left from.
  const landed = legs.flatMap((leg, i) => (leg.status === 'landed' ? [i] : []));
  const missed = landed.length > 0 && rng.bool(0.05) ? rng.pick(landed) : -1;
  for (const [i, leg] of legs.entries()) {
    if (leg.departure === undefined) {
      timeline.add(timeline.lastAt + rng.int(10, 40) * MINUTE, leg.origin, 'delayed', `Flight ${leg.flight_number} cancelled; bag held at ${leg.origin} for rebooking`);
      break;
    }
    if (leg.departure > AIRLINE_NOW) {
      if (leg.departure - 40 * MINUTE <= AIRLINE_NOW) {
        timeline.add(leg.departure - rng.int(20, 40) * MINUTE, leg.origin, 'loaded', `Loaded onto ${leg.flight_number} to ${leg.destination}`);
      }
      break;
    }
    if (i === missed) {
      const reported = (leg.arrival ?? leg.departure) + rng.int(20, 60) * MINUTE;
      timeline.add(reported, leg.origin, 'delayed', `Did not make ${leg.flight_number}; rerouted to ${final} on the next available flight`);
      if (AIRLINE_NOW - reported > 24 * HOUR && rng.bool(0.35)) {
        timeline.add(reported + 24 * HOUR, leg.origin, 'lost', 'Bag not located after 24 hours; a search and a claim have been opened');
      }
      break;
    }
    timeline.add(leg.departure - rng.int(20, 45) * MINUTE, leg.origin, 'loaded', `Loaded onto ${leg.flight_number} to ${leg.destination}`);
    if (leg.status !== 'landed' || leg.arrival === undefined) {
      timeline.add(leg.departure, leg.origin, 'in_transit', `Departed ${leg.origin} on ${leg.flight_number}`);
      break;
    }
    const next = legs[i + 1];
    timeline.add(
      leg.arrival + rng.int(10, 30) * MINUTE,
      leg.destination,
      next ? 'in_transit' : 'arrived',
      next ? `Arrived at ${leg.destination}, transferring to ${next.flight_number}` : `Arrived at ${leg.destination} baggage claim`,
    );
  }
  return timeline.events;
}

/**
 * One bag per checked bag (`total_baggages`) of each non-cancelled journey that has left in the
 * last 48 hours, or leaves within 4 hours and is checked in; events follow the flights' statuses.
 */
export function deriveBags(
  db: Pick<AirlineDatabase, 'flights' | 'reservations'>,
  checkIns: Record<string, CheckIn>,
  seed: string,
): Record<string, Bag> {
  const bags: Record<string, Bag> = {};
  for (const reservation of Object.values(db.reservations)) {
    if (reservation.status === 'cancelled' || reservation.total_baggages <= 0 || reservation.passengers.length === 0) continue;
    journeys(reservation).forEach((journey, index) => {
      const legs: Leg[] = [];
      for (const { flight_number, date } of journey) {
        const flight = own(db.flights, flight_number);
        const status = flight && own(flight.dates, date);
        if (!flight || !status) return;
        legs.push({
          flight_number,
          origin: flight.origin,
          destination: flight.destination,
          status: status.status,
          departure: departureTime(flight, date, status),
          arrival: arrivalTime(flight, date, status),
        });
      }
      const first = journey[0]!;
      const departure = legs[0]!.departure;
      if (departure === undefined) return;
      const left = departure <= AIRLINE_NOW && AIRLINE_NOW - departure <= BAGS_SINCE;
      const dropped =
        departure > AIRLINE_NOW &&
        departure - AIRLINE_NOW <= BAG_DROP_OPENS &&
        hasOwn(checkIns, checkInKey(reservation.reservation_id, first.flight_number, first.date));
      if (!left && !dropped) return;

      const rng = new Random(`${seed}:bags:${reservation.reservation_id}:${index}`);
      for (let n = 0; n < reservation.total_baggages; n++) {
        let tag: string;
        do tag = String(rng.int(1, 9)) + rng.digits(9);
        while (hasOwn(bags, tag));
        const checkedAt = Math.min(departure - rng.int(50, 150) * MINUTE, AIRLINE_NOW - rng.int(2, 30) * MINUTE);
        const events = bagEvents(rng, legs, checkedAt);
        const last = events[events.length - 1]!;
        const { first_name, last_name } = reservation.passengers[n % reservation.passengers.length]!;
        bags[tag] = {
          tag,
          reservation_id: reservation.reservation_id,
          passenger: { first_name, last_name },
          flight_number: first.flight_number,
          date: first.date,
          status: last.status,
          location: last.location,
          events,
        };
      }
    });
  }
  return bags;
}

// ---- the whole file ----

const isEmpty = (table: Record<string, unknown> | undefined): boolean => !table || Object.keys(table).length === 0;

/**
 * A complete copy of a database: missing airports added; seat maps, check-ins and bags derived
 * when their table is empty (a file that has one of them is taken to hold all it wants; a flight
 * date without a seat map has the standard layout with nobody seated). Existing records are kept;
 * the input is not changed.
 */
export function completeAirline(file: AirlineDatabase, seed: string = DERIVATION_SEED): AirlineDatabase {
  const db = structuredClone(file);
  const airports = { ...db.airports };
  for (const [code, airport] of Object.entries(deriveAirports(db.flights))) airports[code] ??= airport;
  const seat_maps = isEmpty(db.seat_maps) ? deriveSeatMaps(db, seed) : db.seat_maps;
  const check_ins = isEmpty(db.check_ins) ? deriveCheckIns(db, seat_maps, seed) : db.check_ins;
  const bags = isEmpty(db.bags) ? deriveBags(db, check_ins, seed) : db.bags;
  return { flights: db.flights, users: db.users, reservations: db.reservations, airports, seat_maps, check_ins, bags };
}
