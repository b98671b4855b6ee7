import type { Table, Tables } from '../../lib/table.js';
import { toolError } from '../errors.js';
import { AIRLINE_ERRORS } from './errors.js';
import { own } from '../../lib/own.js';
import { foldForMatch } from '../../lib/text.js';
import { AIRLINE_NOW_EST } from './schema.js';
import type { AirlineRecords, Cabin, Flight, FlightDateStatus, PaymentMethod, Reservation, User } from './schema.js';

/** The airline database as a tool sees it. */
export type AirlineDb = Tables<AirlineRecords>;

/** The ids a new reservation takes, first free one first (tau2-bench's fixed sequence). */
export const NEW_RESERVATION_IDS = ['HATHAT', 'HATHAU', 'HATHAV'] as const;
/** The ids a new certificate takes in a user's profile, first free one first. */
export const NEW_CERTIFICATE_IDS = ['certificate_3221322', 'certificate_3221323', 'certificate_3221324'] as const;
/** When a reservation booked now is created: the airline's fixed "now". */
export const BOOKING_TIME = AIRLINE_NOW_EST;

export const INSURANCE_PER_PASSENGER = 30;
export const PRICE_PER_NONFREE_BAG = 50;
/** Free checked bags per passenger, by the booking user's membership and the cabin (the policy's table). */
export const FREE_BAGS_PER_PASSENGER = {
  regular: { basic_economy: 0, economy: 1, business: 2 },
  silver: { basic_economy: 1, economy: 2, business: 3 },
  gold: { basic_economy: 2, economy: 3, business: 4 },
} as const satisfies Record<User['membership'], Record<Cabin, number>>;

// Lookups shared by the airline tools; their messages are tau2-bench's.

/**
 * The key under which `table` holds `id`: exactly, else ignoring surrounding spaces, case and
 * accents (as tau2-bench resolves ids an agent may have mis-cased). Ids are unique up to case.
 */
export function resolveKey(table: Table<unknown>, id: string): string | undefined {
  if (table.has(id)) return id;
  const trimmed = id.trim();
  if (trimmed !== id && table.has(trimmed)) return trimmed;
  const folded = foldForMatch(trimmed);
  if (folded === '') return undefined;
  for (const [key] of table.entries()) if (foldForMatch(key) === folded) return key;
  return undefined;
}

export function requireUser(db: AirlineDb, userId: string): User {
  const key = resolveKey(db.users, userId);
  if (key === undefined) throw toolError(AIRLINE_ERRORS.user_not_found, `User ${userId} not found`);
  return db.users.get(key)!;
}

export function requireReservation(db: AirlineDb, reservationId: string): Reservation {
  const key = resolveKey(db.reservations, reservationId);
  if (key === undefined) throw toolError(AIRLINE_ERRORS.reservation_not_found, `Reservation ${reservationId} not found`);
  return db.reservations.get(key)!;
}

export function requireFlight(db: AirlineDb, flightNumber: string): Flight {
  const key = resolveKey(db.flights, flightNumber);
  if (key === undefined) throw toolError(AIRLINE_ERRORS.flight_not_found, `Flight ${flightNumber} not found`);
  return db.flights.get(key)!;
}

/** The flight's status record on one date. */
export function requireFlightDate(flight: Flight, date: string): FlightDateStatus {
  return own(flight.dates, date) ?? fail(toolError(AIRLINE_ERRORS.flight_date_not_found, `Flight ${flight.flight_number} not found on date ${date}`));
}

/** A flight's date record while it is on sale. */
export type AvailableDate = Extract<FlightDateStatus, { status: 'available' }>;

/**
 * A flight on a date that can be booked: status "available" with enough seats left in the cabin.
 * Returns the date's record and the cabin's current price per passenger.
 */
export function requireBookable(flight: Flight, date: string, cabin: Cabin, seats: number): { instance: AvailableDate; price: number } {
  const instance = requireFlightDate(flight, date);
  if (instance.status !== 'available') {
    throw toolError(AIRLINE_ERRORS.flight_not_available, `Flight ${flight.flight_number} not available on date ${date}`);
  }
  const left = own(instance.available_seats, cabin);
  const price = own(instance.prices, cabin);
  if (left === undefined || price === undefined || left < seats)
    throw toolError(AIRLINE_ERRORS.not_enough_seats, `Not enough seats on flight ${flight.flight_number}`);
  return { instance, price };
}

/** The user's payment method with this id; `message` is the tool's tau2-bench wording. */
export function requirePaymentMethod(user: User, paymentId: string, message = 'Payment method not found'): PaymentMethod {
  return own(user.payment_methods, paymentId) ?? fail(toolError(AIRLINE_ERRORS.payment_method_not_found, message));
}

/**
 * Checks the payment method that pays (price > 0) or receives (price < 0) a change to a
 * reservation of `user`, and debits or credits it when it is a gift card. Certificates cannot
 * pay for changes. Returns the payment-history entry, or none when the price is 0.
 */
export function payForChange(db: AirlineDb, user: User, paymentId: string, price: number): { payment_id: string; amount: number } | undefined {
  const method = requirePaymentMethod(user, paymentId);
  if (method.source === 'certificate') {
    throw toolError(AIRLINE_ERRORS.certificate_not_allowed, 'Certificate cannot be used to update reservation');
  }
  if (method.source === 'gift_card') {
    if (method.amount < price) throw toolError(AIRLINE_ERRORS.insufficient_gift_card_balance, 'Gift card balance is not enough');
    if (price !== 0) (requirePaymentMethod(db.users.edit(user.user_id)!, paymentId) as typeof method).amount -= price;
  }
  return price === 0 ? undefined : { payment_id: paymentId, amount: price };
}

function fail(error: Error): never {
  throw error;
}
