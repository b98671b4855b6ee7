import type { commonTools } from '../../common/index.js';
import type { airlineExtraTools } from './extra.js';
import bookReservation from './book_reservation.js';
import cancelReservation from './cancel_reservation.js';
import getFlightStatus from './get_flight_status.js';
import getReservationDetails from './get_reservation_details.js';
import getUserDetails from './get_user_details.js';
import listAllAirports from './list_all_airports.js';
import searchDirectFlight from './search_direct_flight.js';
import searchOnestopFlight from './search_onestop_flight.js';
import sendCertificate from './send_certificate.js';
import updateReservationBaggages from './update_reservation_baggages.js';
import updateReservationFlights from './update_reservation_flights.js';
import updateReservationPassengers from './update_reservation_passengers.js';

/** The airline tools, in listing order: tau2-bench's first, then ours. */
export const airlineTools = [
  getUserDetails,
  getReservationDetails,
  listAllAirports,
  searchDirectFlight,
  searchOnestopFlight,
  getFlightStatus,
  bookReservation,
  cancelReservation,
  updateReservationFlights,
  updateReservationBaggages,
  updateReservationPassengers,
  sendCertificate,
] as const;

/** The name of any tool the airline domain lists (its own and the shared ones). */
export type AirlineToolName = (typeof airlineTools | typeof airlineExtraTools | typeof commonTools)[number]['name'];
