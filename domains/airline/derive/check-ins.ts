import { own } from '../../../lib/own.js';
import { Random } from '../../../lib/random.js';
import { HOUR, MINUTE } from '../../../lib/time.js';
import { boardingGroup } from '../operations.js';
import type { AirlineDatabase, CheckIn, SeatMap } from '../schema.js';
import { emptySeatMap, pickSeats, SEAT_MAP_STATUSES, seatMapKey, sortAssigned } from './seats.js';
import { AIRLINE_NOW, departureTime, estText } from './time.js';

// Check-ins: of the reservations whose flight leaves within 24 hours of now, either way.

export const checkInKey = (reservationId: string, flightNumber: string, date: string): string => `${reservationId}/${flightNumber}/${date}`;

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
              let target = own(seatMaps, key);
              if (!target) {
                target = emptySeatMap(leg.flight_number, leg.date);
                seatMaps[key] = target;
              }
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
