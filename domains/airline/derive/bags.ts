import { hasOwn, own } from '../../../lib/own.js';
import { Random } from '../../../lib/random.js';
import { HOUR, MINUTE } from '../../../lib/time.js';
import type { AirlineDatabase, Bag, CheckIn, FlightDateStatus, Reservation } from '../schema.js';
import { checkInKey } from './check-ins.js';
import { AIRLINE_NOW, arrivalTime, departureTime, estText } from './time.js';

// Bags: the checked bags of journeys around now, with their tracking events.

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
      timeline.add(
        timeline.lastAt + rng.int(10, 40) * MINUTE,
        leg.origin,
        'delayed',
        `Flight ${leg.flight_number} cancelled; bag held at ${leg.origin} for rebooking`,
      );
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
export function deriveBags(db: Pick<AirlineDatabase, 'flights' | 'reservations'>, checkIns: Record<string, CheckIn>, seed: string): Record<string, Bag> {
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
