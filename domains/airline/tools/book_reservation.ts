import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { toolError } from '../../errors.js';
import { AIRLINE_ERRORS } from '../errors.js';
import { own } from '../../../lib/own.js';
import { airportCode, bagCount, cabin, flightSegments, passengers, paymentId, userId } from '../fields.js';
import { Reservation } from '../schema.js';
import {
  BOOKING_TIME,
  INSURANCE_PER_PASSENGER,
  NEW_RESERVATION_IDS,
  PRICE_PER_NONFREE_BAG,
  requireBookable,
  requireFlight,
  requireFlightDate,
  requirePaymentMethod,
  requireUser,
  type AirlineDb,
  type AvailableDate,
} from '../db.js';
import { codesOf } from '../../../lib/error-catalog.js';

export default defineTool({
  name: 'book_reservation',
  description:
    'Book a new reservation for a user and charge it. Every flight must be "available" on its date with enough seats ' +
    'in the cabin for all passengers. The total is: for each flight, its current cabin price × passengers; plus 30 per ' +
    'passenger with insurance; plus 50 per non-free bag. The payments must add up to exactly that total; a gift card or ' +
    "certificate cannot pay more than its amount. A gift card's amount is reduced by what it pays; a certificate is " +
    'used up entirely, even if it pays less than its amount. The seats are taken on each flight. The tool does not ' +
    'check the booking policy (number of passengers, mix of payment methods, free bag allowance): check it yourself, ' +
    'state the itinerary, passengers, bags, insurance and total, and get an explicit "yes" before calling. ' +
    'Returns the new reservation.',
  input: z.strictObject({
    user_id: userId.describe("Id of the user who books and pays, e.g. 'sara_doe_496'."),
    origin: airportCode.describe("IATA code of the trip's origin, e.g. 'SFO'."),
    destination: airportCode.describe("IATA code of the trip's destination (the farthest point of a round trip), e.g. 'JFK'."),
    flight_type: z.enum(['one_way', 'round_trip']).describe("'one_way' or 'round_trip'."),
    cabin,
    flights: flightSegments.describe('Every flight segment of the trip, outbound then return, each a flight number and its date.'),
    passengers,
    payment_methods: z
      .array(
        z.strictObject({
          payment_id: paymentId,
          amount: z.number().int().min(0).describe('Whole amount in dollars this method pays.'),
        }),
      )
      .describe("How the total is split over the user's payment methods; the amounts must add up to the total."),
    total_baggages: bagCount.describe('Checked bags for the whole reservation, free and paid.'),
    nonfree_baggages: bagCount.describe('How many of the checked bags exceed the free allowance and cost 50 each.'),
    insurance: z.enum(['yes', 'no']).describe("Travel insurance, 30 per passenger: 'yes' or 'no'."),
  }),
  output: Reservation,
  errors: codesOf(
    AIRLINE_ERRORS,
    'user_not_found',
    'flight_not_found',
    'flight_date_not_found',
    'payment_method_not_found',
    'flight_not_available',
    'not_enough_seats',
    'too_many_reservations',
    'insufficient_balance',
    'payment_mismatch',
  ),
  mutates: true,
  effect: { destructive: true, idempotent: false },
  example: {
    user_id: 'dmitri_akana_9260',
    origin: 'SLC',
    destination: 'ORD',
    flight_type: 'one_way',
    cabin: 'economy',
    flights: [{ flight_number: 'HAT001', date: '2024-05-16' }],
    passengers: [{ first_name: 'Noor', last_name: 'Haddad', dob: '1984-03-09' }],
    payment_methods: [{ payment_id: 'credit_card_6952603', amount: 249 }],
    total_baggages: 0,
    nonfree_baggages: 0,
    insurance: 'no',
  },
  run(args, db: AirlineDb) {
    const user = requireUser(db, args.user_id);
    const reservationId = NEW_RESERVATION_IDS.find((id) => !db.reservations.has(id));
    if (reservationId === undefined) throw toolError(AIRLINE_ERRORS.too_many_reservations, 'Too many reservations');

    const count = args.passengers.length;
    const segments = args.flights.map(({ flight_number, date }) => {
      const flight = requireFlight(db, flight_number);
      return { flight, date, price: requireBookable(flight, date, args.cabin, count).price };
    });
    const total =
      segments.reduce((sum, { price }) => sum + price * count, 0) +
      (args.insurance === 'yes' ? INSURANCE_PER_PASSENGER * count : 0) +
      PRICE_PER_NONFREE_BAG * args.nonfree_baggages;

    // Each method must be the user's; a gift card or certificate must hold what it pays (summed when listed twice).
    const paidBy = new Map<string, number>();
    for (const { payment_id, amount } of args.payment_methods) {
      const method = requirePaymentMethod(user, payment_id, `Payment method ${payment_id} not found`);
      const paid = (paidBy.get(payment_id) ?? 0) + amount;
      paidBy.set(payment_id, paid);
      if (method.source !== 'credit_card' && method.amount < paid) {
        throw toolError(AIRLINE_ERRORS.insufficient_balance, `Not enough balance in payment method ${payment_id}`);
      }
    }
    const paid = args.payment_methods.reduce((sum, { amount }) => sum + amount, 0);
    if (paid !== total) {
      throw toolError(AIRLINE_ERRORS.payment_mismatch, `Payment amount does not add up, total price is ${total}, but paid ${paid}`);
    }

    // Debited entry by entry, in the order given, as tau2-bench does: the float arithmetic then matches to the last bit.
    const payer = db.users.edit(user.user_id)!;
    for (const { payment_id, amount } of args.payment_methods) {
      const method = own(payer.payment_methods, payment_id);
      if (method?.source === 'gift_card') method.amount -= amount;
      else if (method?.source === 'certificate') delete payer.payment_methods[payment_id];
    }
    for (const { flight, date } of segments) {
      // Checked above: the instance is available, with this cabin (a flight listed twice loses seats twice, as in tau2-bench).
      const instance = requireFlightDate(db.flights.edit(flight.flight_number)!, date) as AvailableDate;
      instance.available_seats[args.cabin] -= count;
    }
    payer.reservations.push(reservationId);

    const reservation: Reservation = {
      reservation_id: reservationId,
      user_id: user.user_id,
      origin: args.origin,
      destination: args.destination,
      flight_type: args.flight_type,
      cabin: args.cabin,
      flights: segments.map(({ flight, date, price }) => ({
        origin: flight.origin,
        destination: flight.destination,
        flight_number: flight.flight_number,
        date,
        price,
      })),
      passengers: args.passengers.map(({ first_name, last_name, dob }) => ({ first_name, last_name, dob })),
      payment_history: args.payment_methods.map(({ payment_id, amount }) => ({ payment_id, amount })),
      created_at: BOOKING_TIME,
      total_baggages: args.total_baggages,
      nonfree_baggages: args.nonfree_baggages,
      insurance: args.insurance,
      status: null,
    };
    db.reservations.put(reservationId, reservation);
    return reservation;
  },
});
