import { deepFreeze } from '../../lib/freeze.js';
import { readFileSync } from 'node:fs';
import type { AirlineDatabase, Flight, FlightDateStatus, PaymentMethod, Reservation, User } from '../../domains/airline/schema.js';
import { domains } from '../../domains/index.js';
import { type BaseDatabase, baseFromFile } from '../../server/core/data/base.js';
import { fixtureBases } from './server.js';

let cached: AirlineDatabase | undefined;

/** The embedded airline fixture, parsed once: tests pick their data from it instead of hard-coding ids. */
export function airlineFixture(): AirlineDatabase {
  cached ??= deepFreeze(JSON.parse(readFileSync(new URL('../../fixtures/airline.json', import.meta.url), 'utf8')) as AirlineDatabase);
  return cached;
}

/** The first reservation (in file order) that satisfies `test`; throws when none does. */
export function findReservation(test: (reservation: Reservation, user: User) => boolean): Reservation {
  const db = airlineFixture();
  for (const reservation of Object.values(db.reservations)) if (test(reservation, db.users[reservation.user_id]!)) return reservation;
  throw new Error('no reservation in the fixture matches');
}

export function findUser(test: (user: User) => boolean): User {
  for (const user of Object.values(airlineFixture().users)) if (test(user)) return user;
  throw new Error('no user in the fixture matches');
}

export type Available = Extract<FlightDateStatus, { status: 'available' }>;

export interface FlightDate {
  flight: Flight;
  date: string;
  instance: FlightDateStatus;
}

/** Every flight on every date, in file order. */
function* flightDates(): Generator<FlightDate> {
  for (const flight of Object.values(airlineFixture().flights)) {
    for (const [date, instance] of Object.entries(flight.dates)) yield { flight, date, instance };
  }
}

/** The first flight-date that satisfies `test`; throws when none does. */
export function findFlightDate(test: (found: FlightDate) => boolean): FlightDate {
  for (const found of flightDates()) if (test(found)) return found;
  throw new Error('no flight date in the fixture matches');
}

export const isAvailable = (instance: FlightDateStatus | undefined): instance is Available => instance?.status === 'available';

export const methodsOf = <S extends PaymentMethod['source']>(user: User, source: S) =>
  Object.values(user.payment_methods).filter((m): m is Extract<PaymentMethod, { source: S }> => m.source === source);

export const userOf = (reservation: Reservation): User => airlineFixture().users[reservation.user_id]!;

/** The fixture's current instance of a flight on a date. */
export const instanceOf = (flightNumber: string, date: string): FlightDateStatus | undefined => airlineFixture().flights[flightNumber]?.dates[date];

/**
 * The fixture's bases, with the airline database replaced by a patched copy of the fixture:
 * for situations the generated data never holds. Pass the result to startServer(t, { bases }).
 */
export async function patchedAirlineBases(patch: (db: AirlineDatabase) => void): Promise<Map<string, BaseDatabase>> {
  const db = structuredClone(airlineFixture());
  patch(db);
  const airline = domains.find((domain) => domain.name === 'airline')!;
  const bases = new Map(await fixtureBases());
  bases.set('airline', baseFromFile(airline, db, 'patched airline fixture'));
  return bases;
}

/** A one-way economy booking that can be made: a member with a card, a flight date with seats, the exact price. */
export function aBooking() {
  const booker = findUser((u) => methodsOf(u, 'credit_card').length > 0);
  const card = methodsOf(booker, 'credit_card')[0]!;
  const bookable = findFlightDate(({ instance }) => isAvailable(instance) && instance.available_seats.economy > 2);
  const price = isAvailable(bookable.instance) ? bookable.instance.prices.economy : 0;
  const args = (origin = bookable.flight.origin) => ({
    user_id: booker.user_id,
    origin,
    destination: bookable.flight.destination,
    flight_type: 'one_way',
    cabin: 'economy',
    flights: [{ flight_number: bookable.flight.flight_number, date: bookable.date }],
    passengers: [{ first_name: booker.name.first_name, last_name: booker.name.last_name, dob: booker.dob }],
    payment_methods: [{ payment_id: card.id, amount: price }],
    total_baggages: 0,
    nonfree_baggages: 0,
    insurance: 'no',
  });
  return { booker, card, bookable, price, args };
}
