import type { ResultHook } from '../../../hazards/kind.js';
import { toCents } from '../../../lib/money.js';
import { isObject } from '../../../lib/object.js';
import type { Random } from '../../../lib/random.js';
import type { AirlineDb } from '../db.js';
import type { Bag, Reservation } from '../schema.js';
import { faresOf } from '../tools/get_reservation_details.js';
import { listedFlight } from '../tools/search_direct_flight.js';

// How airline's output hazards reshape an answer: drifted amounts, a look-alike total, a cached bag
// summary, promoted flights, a cut one-stop search.

type Obj = Record<string, unknown>;
type Hook = ResultHook<AirlineDb>;

/** get_reservation_details, v2: amounts become integer cents, with their currency and unit. */
export function reservationInCents({ result }: Hook): unknown {
  if (!isObject(result)) return result;
  const { flights, payment_history, total_price, ...rest } = result as unknown as Reservation & { total_price?: number };
  return {
    ...rest,
    currency: 'USD',
    amount_unit: 'cents',
    flights: flights.map(({ price, ...flight }) => ({ ...flight, price_cents: toCents(price) })),
    payment_history: payment_history.map(({ amount, ...payment }) => ({ ...payment, amount_cents: toCents(amount) })),
    ...(total_price === undefined ? {} : { total_price_cents: toCents(total_price) }),
  };
}

/**
 * get_reservation_details with the fare total (`total_price`) that reservations sold without extras show,
 * on every reservation: fares × passengers, without bags, insurance or later changes (a PNR's ticketed
 * fare beside the payment ledger). What the customer paid is the payment history.
 */
export function fareTotal({ result }: Hook): Obj | null {
  if (!isObject(result) || !Array.isArray(result['flights']) || !Array.isArray(result['passengers'])) return null;
  return { total_price: faresOf(result as unknown as Reservation) };
}

/** An Eastern time (`YYYY-MM-DDTHH:MM:SS`) drawn between two others, to the minute, before `last`. */
function between(first: string, last: string, random: Random): string {
  const [from, to] = [Date.parse(`${first}Z`), Date.parse(`${last}Z`)];
  const minutes = Math.max(0, Math.floor((to - from) / 60_000) - 1);
  return new Date(from + random.int(0, minutes) * 60_000).toISOString().slice(0, 19);
}

/**
 * track_baggage from the tracking summary's cache, filled between the last two scans of the most
 * recently scanned bag: each bag's status and location as of then, while its scan events are live.
 */
export function bagSummaryLags({ result, random }: Hook) {
  if (!isObject(result) || !Array.isArray(result['bags'])) return null;
  const bags = result['bags'] as Bag[];
  const lastScan = (bag: Bag) => bag.events.at(-1)?.at ?? '';
  const scanned = bags.filter((bag) => bag.events.length >= 2).sort((a, b) => lastScan(b).localeCompare(lastScan(a)))[0];
  if (!scanned) return null;
  const [before, last] = scanned.events.slice(-2) as [Bag['events'][number], Bag['events'][number]];
  const asOf = between(before.at, last.at, random);
  const cached = bags.map((bag) => {
    const seen = bag.events.filter((event) => event.at <= asOf).at(-1);
    return seen ? { ...bag, status: seen.status, location: seen.location } : bag;
  });
  return { result: { ...result, bags: cached, as_of: asOf, cache: 'HIT' }, field: `bags.${bags.indexOf(scanned)}.status` };
}

/** Fares the airline promotes beside a search: the same route on other days, or other destinations that day. */
export function promotedFlights({ result, args, db, random }: Hook): Obj[] {
  if (!Array.isArray(result)) return [];
  const { origin, destination, date } = args;
  if (typeof origin !== 'string' || typeof destination !== 'string' || typeof date !== 'string') return [];
  const candidates: Obj[] = [];
  for (const flight of db.flights.values()) {
    if (flight.origin !== origin) continue;
    if (flight.destination !== destination) {
      const ad = listedFlight(flight, date);
      if (ad) candidates.push(ad);
      continue;
    }
    // The same route on another day.
    for (const other of Object.keys(flight.dates)) {
      if (other === date) continue;
      const ad = listedFlight(flight, other);
      if (ad) candidates.push(ad);
    }
  }
  if (candidates.length === 0) return [];
  return [...new Set([random.pick(candidates), random.pick(candidates)])];
}

/** The connecting airport of a one-stop itinerary (a pair of legs). */
const via = (itinerary: Obj) => String((itinerary as unknown as [Obj])[0]['destination']);

/** search_onestop_flight keeps the itineraries of its first connecting airports. */
export function firstConnections(itineraries: readonly Obj[], random: Random): readonly Obj[] {
  const connections = [...new Set(itineraries.map(via))];
  if (connections.length < 2) return [];
  const shown = new Set(connections.slice(0, random.int(1, connections.length - 1)));
  return itineraries.filter((itinerary) => shown.has(via(itinerary)));
}

/** The note names the connections left out, whose legs search_direct_flight finds. */
export function itinerariesLeftOut({ result, args }: Hook, kept: readonly Obj[]): Obj {
  const pairs = result as Obj[];
  const omitted = [...new Set(pairs.filter((pair) => !kept.includes(pair)).map(via))];
  return {
    itineraries: kept,
    truncated: true,
    shown: kept.length,
    total: pairs.length,
    omitted_connections: omitted,
    note:
      `Response truncated to ${kept.length} of ${pairs.length} itineraries. Itineraries connecting via ${omitted.join(', ')} ` +
      `were left out: search those legs with search_direct_flight (${String(args['origin'])} → connection, connection → ${String(args['destination'])}).`,
  };
}
