import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { cabin, flightSegments, paymentId, reservationId } from '../fields.js';
import { Reservation } from '../schema.js';
import type { Reservation as ReservationRecord } from '../schema.js';
import { payForChange, requireBookable, requireFlight, requireReservation, requireUser, type AirlineDb } from '../db.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { AIRLINE_ERRORS } from '../errors.js';

type Segment = ReservationRecord['flights'][number];

export default defineTool({
  name: 'update_reservation_flights',
  description:
    "Replace a reservation's itinerary and/or cabin. Give the ENTIRE new itinerary, including segments that do not " +
    'change. A segment kept with the same flight, date and cabin keeps the price paid; every other segment must be ' +
    'open for booking with enough seats, and is priced at its current price. The difference (new total − old total, ' +
    'times passengers) is charged to the payment method, or refunded to it when negative (a credit card, or a gift ' +
    'card that covers a charge; not a certificate). The tool does not check the change rules (basic economy flights ' +
    'cannot change; same origin, destination and trip type; one cabin for the whole reservation): check them, state ' +
    'the new flights and the price difference, and get an explicit "yes" first. Returns the updated reservation.',
  input: z.strictObject({
    reservation_id: reservationId,
    cabin: cabin.describe('Cabin of the whole reservation after the change (its current cabin if unchanged).'),
    flights: flightSegments.describe('Every flight segment of the new itinerary, in travel order, unchanged ones included.'),
    payment_id: paymentId.describe("Payment method of the reservation's user that pays, or receives, the price difference: a credit card or a gift card."),
  }),
  output: Reservation,
  errors: codesOf(
    AIRLINE_ERRORS,
    'user_not_found',
    'reservation_not_found',
    'flight_not_found',
    'flight_date_not_found',
    'payment_method_not_found',
    'flight_not_available',
    'not_enough_seats',
    'certificate_not_allowed',
    'insufficient_gift_card_balance',
  ),
  mutates: true,
  effect: { destructive: true, idempotent: true },
  example: {
    reservation_id: 'S0Q246',
    cabin: 'economy',
    flights: [
      { flight_number: 'HAT143', date: '2024-05-21' },
      { flight_number: 'HAT194', date: '2024-05-25' },
    ],
    payment_id: 'credit_card_6952603',
  },
  run({ reservation_id, cabin, flights, payment_id }, db: AirlineDb) {
    const current = requireReservation(db, reservation_id);
    const owner = requireUser(db, current.user_id);
    const count = current.passengers.length;

    const segments: Segment[] = flights.map(({ flight_number, date }) => {
      const flight = requireFlight(db, flight_number);
      const kept = current.flights.find((s) => s.flight_number === flight.flight_number && s.date === date && cabin === current.cabin);
      if (kept) return { ...kept };
      const { price } = requireBookable(flight, date, cabin, count);
      return { origin: flight.origin, destination: flight.destination, flight_number: flight.flight_number, date, price };
    });
    const sum = (list: readonly Segment[]) => list.reduce((total, { price }) => total + price, 0) * count;
    const difference = sum(segments) - sum(current.flights);
    const payment = payForChange(db, owner, payment_id, difference);

    const reservation = db.reservations.edit(current.reservation_id)!;
    if (payment) reservation.payment_history.push(payment);
    reservation.flights = segments;
    reservation.cabin = cabin;
    return reservation;
  },
});
