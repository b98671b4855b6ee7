import { z } from 'zod';
import { Cabin, IsoDate } from './schema.js';

// Argument schemas that several airline tools share, described once.

export const userId = z.string().describe("User id, e.g. 'sara_doe_496'. Ask the customer for it.");
export const reservationId = z.string().describe("Reservation id: six letters and digits, e.g. 'ZFA04Y'.");
export const flightNumber = z.string().describe("Flight number, e.g. 'HAT170'.");
export const flightDate = IsoDate.describe("Date of the flight's departure, YYYY-MM-DD, e.g. '2024-05-16'.");
export const airportCode = z.string().describe("IATA code of an airport, three upper-case letters, e.g. 'JFK'.");

export const cabin = Cabin.describe("Cabin class: 'basic_economy', 'economy' or 'business'. The same for every flight of a reservation.");

export const paymentId = z.string().describe("Id of a payment method in the user's profile, e.g. 'credit_card_7815826' or 'gift_card_7815826'.");

export const flightSegments = z
  .array(
    z.strictObject({
      flight_number: flightNumber,
      date: flightDate,
    }),
  )
  .min(1)
  .describe('Flight segments in travel order, each a flight number and its departure date.');

export const passenger = z.strictObject({
  first_name: z.string().min(1).describe("Passenger's first name."),
  last_name: z.string().min(1).describe("Passenger's last name."),
  dob: IsoDate.describe("Passenger's date of birth, YYYY-MM-DD."),
});
export const passengers = z.array(passenger).min(1).describe('Every passenger travelling on the reservation.');

export const bagCount = z.number().int().min(0);

/** Names one passenger on one flight of a reservation (assign_seat, get_boarding_pass). */
export const passengerOnFlight = {
  reservation_id: reservationId,
  flight_number: flightNumber,
  date: flightDate,
  first_name: z.string().min(1).describe("The passenger's first name, as on the reservation."),
  last_name: z.string().min(1).describe("The passenger's last name, as on the reservation."),
};
