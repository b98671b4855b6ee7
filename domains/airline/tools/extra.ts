import assignSeat from './assign_seat.js';
import checkIn from './check_in.js';
import getBoardingPass from './get_boarding_pass.js';
import getFlightBoard from './get_flight_board.js';
import getSeatMap from './get_seat_map.js';
import trackBaggage from './track_baggage.js';

/** Our airline tools beyond tau2-bench's: the airport board, seats, check-in, boarding passes, bags. */
export const airlineExtraTools = [getFlightBoard, getSeatMap, assignSeat, checkIn, getBoardingPass, trackBaggage] as const;
