import type { Random } from '../../../lib/random.js';
import type { commonTools } from '../../common/index.js';
import { NoInstance, type Solver } from '../../task.js';
import type { AirlineDb } from '../db.js';
import { fromEst, instanceOf, phaseAt } from '../operations.js';
import { AIRLINE_NOW_EST, type Bag, type Cabin, type Flight, type Reservation, type User } from '../schema.js';
import type { airlineExtraTools } from '../tools/extra.js';
import type { airlineTools } from '../tools/index.js';
import { nextDay } from '../tools/search_onestop_flight.js';

// What airline's templates share: how they pick records by what a task needs, how a customer names them
// (a trip by its cities and date, a card by its brand and last digits), and the steps of their reference
// solutions. The policy's figures are restated here, as an agent reads them in the policy.

export type AirlineSolver = Solver<readonly [...typeof airlineTools, ...typeof airlineExtraTools, ...typeof commonTools]>;

/** The policy's "now", Eastern: 2024-05-15 15:00. */
export const NOW = AIRLINE_NOW_EST;
export const TODAY = NOW.slice(0, 10);
export const TOMORROW = '2024-05-16';
/** A reservation booked after this was booked within the last 24 hours. */
export const DAY_AGO = '2024-05-14T15:00:00';
/** The last date one-stop search covers while its feature_limit scenario is on: later dates are searched leg by leg. */
export { ONESTOP_HORIZON as ONESTOP_LAST } from '../hazards/execution.js';

/** Free checked bags per passenger, by membership and cabin (the policy's table). */
export const FREE_BAGS: Readonly<Record<User['membership'], Readonly<Record<Cabin, number>>>> = {
  regular: { basic_economy: 0, economy: 1, business: 2 },
  silver: { basic_economy: 1, economy: 2, business: 3 },
  gold: { basic_economy: 2, economy: 3, business: 4 },
};
export const BAG_PRICE = 50;
export const INSURANCE_PRICE = 30;

/** One of `items`, or NoInstance naming the task and what it looked for. */
export function choose<T>(random: Random, items: readonly T[], task: string, what: string): T {
  if (items.length === 0) throw new NoInstance(`${task}: no ${what} in this world`);
  return random.pick(items);
}

/** What a cancellation request came to: done, or refused with the reason. */
export const CANCELLATION_OUTCOMES = ['cancelled', 'no_policy_ground', 'segment_flown'] as const;

/** A sum of money in dollars, to the cent. */
export const dollars = (amounts: readonly number[]) => amounts.reduce((cents, amount) => cents + Math.round(amount * 100), 0) / 100;

// ---- places and flights

/** An airport as a customer says it: "Salt Lake City (SLC)". */
export const place = (db: AirlineDb, code: string) => `${db.airports.get(code)?.city ?? code} (${code})`;

export const statusOn = (db: AirlineDb, flight_number: string, date: string) => db.flights.get(flight_number)?.dates[date]?.status;

/** The flights open for booking on a date from `origin` to `destination`, in table order (as search_direct_flight lists them). */
export const openFlights = (db: AirlineDb, origin: string, destination: string, date: string): Flight[] =>
  [...db.flights.values()].filter((f) => f.origin === origin && f.destination === destination && f.dates[date]?.status === 'available');

/** The available record of a flight on a date (prices and seats), if it is open for booking. */
export function fares(flight: Flight, date: string) {
  const instance = flight.dates[date];
  return instance?.status === 'available' ? instance : undefined;
}

/** The phase the airport's boards show a flight in, `minutes` after the policy's "now". */
function phaseAfter(flight: Flight, date: string, minutes: number) {
  const instance = flight.dates[date];
  if (!instance) return undefined;
  const { times } = instanceOf(flight, date, instance);
  return phaseAt(instance, times, new Date(fromEst(NOW).getTime() + minutes * 60_000));
}

/** Whether the airport's boards show the flight in the phase its airline status says for the next minutes (not boarding, not gone). */
export const steadyOnBoard = (flight: Flight, date: string) =>
  [0, 10].every((minutes) => phaseAfter(flight, date, minutes) === (flight.dates[date]?.status === 'cancelled' ? 'cancelled' : 'scheduled'));

/** Whether the boards show the flight in one phase for the next minutes, and not boarding. */
export const settledOnBoard = (flight: Flight, date: string) => {
  const now = phaseAfter(flight, date, 0);
  return now !== undefined && now !== 'boarding' && phaseAfter(flight, date, 10) === now;
};

/** The dates the flights fly, from a date on (inclusive), as the table holds them. */
export const datesFrom = (db: AirlineDb, first: string): string[] =>
  [...new Set([...db.flights.values()].flatMap((f) => Object.keys(f.dates)))].filter((date) => date >= first).sort();

// ---- customers, their trips and cards

export const fullName = (person: { first_name: string; last_name: string }) => `${person.first_name} ${person.last_name}`;

/** How a customer names a reservation: where it goes from and to, and the date of its first flight. */
export interface Trip {
  origin: string;
  destination: string;
  date: string;
}

export const tripOf = (reservation: Reservation): Trip => ({
  origin: reservation.origin,
  destination: reservation.destination,
  date: reservation.flights[0]!.date,
});

export const isTrip = (reservation: { origin: string; destination: string; flights: readonly { date: string }[] }, trip: Trip) =>
  reservation.origin === trip.origin && reservation.destination === trip.destination && reservation.flights[0]?.date === trip.date;

/** The trip in the customer's words. */
export const tripWords = (db: AirlineDb, trip: Trip) => `my trip from ${place(db, trip.origin)} to ${place(db, trip.destination)} on ${trip.date}`;

/** Whether the trip names this reservation alone among its user's reservations. */
export function namedByTrip(db: AirlineDb, reservation: Reservation): boolean {
  const user = db.users.get(reservation.user_id);
  if (!user) return false;
  const trip = tripOf(reservation);
  return (
    user.reservations.filter((id) => {
      const other = db.reservations.get(id);
      return other !== undefined && isTrip(other, trip);
    }).length === 1
  );
}

/** An active reservation whose flights are all still to come, from `first` on. */
export const upcoming = (db: AirlineDb, reservation: Reservation, first = TOMORROW) =>
  reservation.status === null && reservation.flights.every((f) => f.date >= first && statusOn(db, f.flight_number, f.date) !== undefined);

export const cardsOf = (user: User) => Object.values(user.payment_methods).flatMap((method) => (method.source === 'credit_card' ? [method] : []));

/** A card as a customer names it. */
export interface CardRef {
  brand: string;
  last_four: string;
}

/** The user's credit cards that their brand and last four digits name alone. */
export function namedCards(user: User): CardRef[] {
  const cards = cardsOf(user);
  return cards
    .filter((card) => cards.filter((other) => other.brand === card.brand && other.last_four === card.last_four).length === 1)
    .map(({ brand, last_four }) => ({ brand, last_four }));
}

const BRANDS: Record<string, string> = { visa: 'Visa card', mastercard: 'Mastercard', amex: 'American Express card', discover: 'Discover card' };
export const cardWords = (card: CardRef) => `my ${BRANDS[card.brand] ?? `${card.brand} card`} ending in ${card.last_four}`;

/** The id of the user's card the customer named. */
export const cardId = (user: User, card: CardRef) =>
  cardsOf(user).find((method) => method.brand.toLowerCase() === card.brand.toLowerCase() && method.last_four === card.last_four)!.id;

/** What was paid for a reservation: the sum of its payment history (refunds negative). */
export const paidFor = (reservation: Reservation) => dollars(reservation.payment_history.map((payment) => payment.amount));

// ---- steps of reference solutions

/** The customer's reservations, read one by one from their profile. */
export const reservationsOf = (tools: AirlineSolver, user_id: string) =>
  tools.get_user_details({ user_id }).reservations.map((reservation_id) => tools.get_reservation_details({ reservation_id }));

/** The reservation of the customer the trip names. */
export function reservationOnTrip(tools: AirlineSolver, user_id: string, trip: Trip): Reservation {
  const found = reservationsOf(tools, user_id).find((reservation) => isTrip(reservation, trip));
  if (!found) throw new Error(`no reservation of ${user_id} on ${JSON.stringify(trip)}`);
  return found;
}

/** A flight as a customer names it: from where to where on which date. */
export interface Leg {
  origin: string;
  destination: string;
  date: string;
}

/** The customer's active reservation holding the flight they describe, and that flight. */
export function reservationWithFlight(tools: AirlineSolver, user_id: string, leg: Leg) {
  for (const reservation of reservationsOf(tools, user_id)) {
    if (reservation.status === 'cancelled') continue;
    const flight = reservation.flights.find((f) => f.origin === leg.origin && f.destination === leg.destination && f.date === leg.date);
    if (flight) return { reservation, flight };
  }
  throw new Error(`no reservation of ${user_id} with a flight ${JSON.stringify(leg)}`);
}

/** One more checked bag on a reservation: the new counts for the whole reservation, the bag beyond the free allowance paid. */
export function addOneBag(tools: AirlineSolver, user: User, reservation: Reservation, payment_id: string) {
  const free = FREE_BAGS[user.membership][reservation.cabin] * reservation.passengers.length;
  const total_baggages = reservation.total_baggages + 1;
  const nonfree_baggages = Math.max(reservation.nonfree_baggages, total_baggages - free);
  const updated = tools.update_reservation_baggages({ reservation_id: reservation.reservation_id, total_baggages, nonfree_baggages, payment_id });
  return {
    total_baggages: updated.total_baggages,
    nonfree_baggages: updated.nonfree_baggages,
    charged: BAG_PRICE * (updated.nonfree_baggages - reservation.nonfree_baggages),
  };
}

/** Why the policy lets a reservation be cancelled for a refund: its grounds, given its flights' statuses. */
export function cancellationGrounds(reservation: Reservation, statuses: readonly string[], reasonCovered: boolean): string[] {
  const grounds: string[] = [];
  if (reservation.created_at > DAY_AGO) grounds.push('booked_within_24h');
  if (statuses.includes('cancelled')) grounds.push('airline_cancelled');
  if (reservation.cabin === 'business') grounds.push('business');
  if (reservation.insurance === 'yes' && reasonCovered) grounds.push('insured_reason');
  return grounds;
}

/** Whether a segment of the reservation has been flown (or is in the air), by its flights' statuses and dates. */
export const anyFlown = (reservation: Reservation, statuses: readonly string[]) =>
  reservation.flights.some((flight, i) => flight.date < TODAY || ['flying', 'landed'].includes(statuses[i]!));

/** A flight a customer names to book: its number, where from and to, and its date. */
export interface Wanted extends Leg {
  flight_number: string;
}

/** Books what the customer confirmed at the fares the search shows now: the user and the saved passengers named, no bags. */
export function bookFlights(
  tools: AirlineSolver,
  order: {
    user_id: string;
    flight_type: 'one_way' | 'round_trip';
    cabin: Cabin;
    flights: readonly Wanted[];
    companions?: readonly { first_name: string; last_name: string }[];
    insurance: 'yes' | 'no';
    pay(total: number, user: User): { payment_id: string; amount: number }[];
  },
) {
  const user = tools.get_user_details({ user_id: order.user_id });
  const prices = order.flights.map(
    ({ flight_number, origin, destination, date }) =>
      tools.search_direct_flight({ origin, destination, date }).find((found) => found.flight_number === flight_number)!.prices[order.cabin],
  );
  const companions = (order.companions ?? []).map(
    (named) => user.saved_passengers.find((p) => p.first_name === named.first_name && p.last_name === named.last_name)!,
  );
  const passengers = [{ ...user.name, dob: user.dob }, ...companions].map(({ first_name, last_name, dob }) => ({ first_name, last_name, dob }));
  const total = dollars(prices.map((price) => price * passengers.length)) + (order.insurance === 'yes' ? INSURANCE_PRICE * passengers.length : 0);
  const payment_methods = order.pay(total, user);
  const reservation = tools.book_reservation({
    user_id: user.user_id,
    origin: order.flights[0]!.origin,
    destination: order.flights[0]!.destination,
    flight_type: order.flight_type,
    cabin: order.cabin,
    flights: order.flights.map(({ flight_number, date }) => ({ flight_number, date })),
    passengers,
    payment_methods,
    total_baggages: 0,
    nonfree_baggages: 0,
    insurance: order.insurance,
  });
  return { reservation, total, payment_methods };
}

/** Flights open for booking from tomorrow on with `seats` left in the cabin: each with its date. */
export function bookable(db: AirlineDb, cabin: Cabin, seats: number): (Wanted & { price: number })[] {
  const dates = datesFrom(db, TOMORROW);
  return [...db.flights.values()].flatMap((flight) =>
    dates.flatMap((date) => {
      const open = fares(flight, date);
      return open && open.available_seats[cabin] >= seats
        ? [{ flight_number: flight.flight_number, origin: flight.origin, destination: flight.destination, date, price: open.prices[cabin] }]
        : [];
    }),
  );
}

/** Origin, destination and date of the one-stop trips from a date to another (inclusive), with their itineraries, as the search finds them. */
export function onestopTrips(db: AirlineDb, first: string, last: string) {
  const flights = [...db.flights.values()];
  const trips: { origin: string; destination: string; date: string; pairs: { first_flight: string; second_flight: string; via: string }[] }[] = [];
  for (const date of datesFrom(db, first).filter((d) => d <= last)) {
    const found = new Map<string, { first_flight: string; second_flight: string; via: string }[]>();
    for (const leg of flights) {
      if (leg.dates[date]?.status !== 'available') continue;
      const arrival = leg.scheduled_arrival_time_est;
      const second = arrival.includes('+1') ? nextDay(date) : date;
      for (const onward of flights) {
        if (onward.origin !== leg.destination || onward.destination === leg.origin || onward.dates[second]?.status !== 'available') continue;
        if (onward.scheduled_departure_time_est < arrival) continue;
        const key = `${leg.origin}/${onward.destination}`;
        found.set(key, [...(found.get(key) ?? []), { first_flight: leg.flight_number, second_flight: onward.flight_number, via: leg.destination }]);
      }
    }
    for (const [key, pairs] of [...found.entries()].sort()) {
      const [origin, destination] = key.split('/') as [string, string];
      trips.push({ origin, destination, date, pairs });
    }
  }
  return trips;
}

/** Whether its route and date name this flight alone among the flights of the user's active reservations. */
export function namedFlightAlone(db: AirlineDb, reservation: Reservation, leg: Leg): boolean {
  const user = db.users.get(reservation.user_id);
  if (!user) return false;
  const same = user.reservations.flatMap((id) => {
    const other = db.reservations.get(id);
    if (!other || other.status === 'cancelled') return [];
    return other.flights.filter((f) => f.origin === leg.origin && f.destination === leg.destination && f.date === leg.date);
  });
  return same.length === 1;
}

/** A bag whose last two scans differ in where or how it is: a summary one scan behind says otherwise. */
export const movedLately = (bag: Bag) => {
  const [before, last] = bag.events.slice(-2);
  return before !== undefined && last !== undefined && (before.status !== last.status || before.location !== last.location);
};
