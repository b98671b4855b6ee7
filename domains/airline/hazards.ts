import { z } from 'zod';
import type { ResultHook, Scenario } from '../../hazards/kind.js';
import { isObject } from '../../lib/object.js';
import type { Random } from '../../lib/random.js';
import { type AnyTool, defineTool } from '../tool.js';
import type { AirlineDb } from './db.js';
import { airportCode, flightDate } from './fields.js';
import { AIRLINE_NOW_EST, type Reservation } from './schema.js';
import type { AirlineToolName } from './tools/index.js';
import { listedFlight } from './tools/search_direct_flight.js';

// The airline domain's hazards: which tool suffers which kind, and exactly how. The kinds'
// mechanics live in hazards/kinds/; this file holds only airline's concrete scenarios.

type Obj = Record<string, unknown>;
type AirlineScenario = Scenario<AirlineDb, AirlineToolName, AnyTool>;
type Hook = ResultHook<AirlineDb>;
const cents = (amount: number) => Math.round(amount * 100);

/** The ISO date `days` after an ISO date. */
const addDays = (date: string, days: number) => {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + days);
  return day.toISOString().slice(0, 10);
};

const TODAY = AIRLINE_NOW_EST.slice(0, 10);

// ---- specification ---------------------------------------------------------------------------

const upperCaseIata = {
  rule: "Airport codes are sent as upper-case IATA codes, e.g. 'JFK' (never 'jfk').",
  accept: (value: string) => (/^[A-Z]{3}$/.test(value) ? value : null),
  message: 'origin: invalid format',
};

/** A deprecated twin of search_direct_flight: a timetable snapshot, without availability, seats or prices. */
export const searchFlightsV1 = defineTool({
  name: 'search_flights_v1',
  description: 'Search flights between two airports on a date.',
  input: z.strictObject({
    origin: airportCode,
    destination: airportCode,
    date: flightDate,
  }),
  output: z.looseObject({}),
  mutates: false,
  run({ origin, destination }, db: AirlineDb) {
    const flights = [...db.flights.values()].filter((f) => f.origin === origin && f.destination === destination);
    return {
      flights: flights.map((f) => ({
        flight_number: f.flight_number,
        origin: f.origin,
        destination: f.destination,
        departure: f.scheduled_departure_time_est,
        arrival: f.scheduled_arrival_time_est,
      })),
      deprecated: true,
      deprecation:
        'search_flights_v1 is deprecated and will be removed: it lists the timetable as of its last sync, whether or not a ' +
        'flight is open for booking on the date, without seats or prices. Use search_direct_flight.',
      last_synced_at: '2024-05-01T00:00:00Z',
    };
  },
});

// ---- execution -------------------------------------------------------------------------------

/** The last departure date one-stop search covers. */
export const ONESTOP_HORIZON = addDays(TODAY, 7);
export const ONESTOP_REASON =
  `One-stop search is limited to departures within 7 days of today (${TODAY}, so up to ${ONESTOP_HORIZON}). For a later date, ` +
  'search each leg with search_direct_flight: from the origin to a connecting airport, then from that airport to the destination.';

// ---- output --------------------------------------------------------------------------------

/** get_reservation_details, v2: amounts become integer cents, with their currency and unit. */
function reservationInCents({ result }: Hook): unknown {
  if (!isObject(result)) return result;
  const { flights, payment_history, ...rest } = result as unknown as Reservation;
  return {
    ...rest,
    currency: 'USD',
    amount_unit: 'cents',
    flights: flights.map(({ price, ...flight }) => ({ ...flight, price_cents: cents(price) })),
    payment_history: payment_history.map(({ amount, ...payment }) => ({ ...payment, amount_cents: cents(amount) })),
  };
}

/** Fares the airline promotes beside a search: the same route on other days, or other destinations that day. */
function promotedFlights({ result, args, db, random }: Hook): Obj[] {
  if (!Array.isArray(result)) return [];
  const { origin, destination, date } = args;
  if (typeof origin !== 'string' || typeof destination !== 'string' || typeof date !== 'string') return [];
  const candidates: Obj[] = [];
  for (const flight of db.flights.values()) {
    if (flight.origin !== origin) continue;
    if (flight.destination !== destination) {
      const ad = listedFlight(flight, date, null);
      if (ad) candidates.push(ad);
      continue;
    }
    // The same route on another day: the ad names its date.
    for (const other of Object.keys(flight.dates)) {
      if (other === date) continue;
      const ad = listedFlight(flight, other, other);
      if (ad) candidates.push(ad);
    }
  }
  if (candidates.length === 0) return [];
  return [...new Set([random.pick(candidates), random.pick(candidates)])];
}

/**
 * search_onestop_flight cut after the itineraries of its first connecting airports; the note
 * names the connections left out, whose legs search_direct_flight finds.
 */
const via = (itinerary: Obj) => String((itinerary as unknown as [Obj])[0]['destination']);

/** search_onestop_flight keeps the itineraries of its first connecting airports. */
function firstConnections(itineraries: readonly Obj[], random: Random): readonly Obj[] {
  const connections = [...new Set(itineraries.map(via))];
  if (connections.length < 2) return [];
  const shown = new Set(connections.slice(0, random.int(1, connections.length - 1)));
  return itineraries.filter((itinerary) => shown.has(via(itinerary)));
}

/** The note names the connections left out, whose legs search_direct_flight finds. */
function itinerariesLeftOut({ result, args }: Hook, kept: readonly Obj[]): Obj {
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

// ---- cross-source ----------------------------------------------------------------------------

/** A local ISO time with its UTC offset, `minutes` later, in the same offset. */
function later(local: string, minutes: number): string {
  const offset = /([+-])(\d{2}):(\d{2})$/.exec(local);
  if (!offset) return local;
  const offsetMs = (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3])) * 60_000;
  return new Date(Date.parse(local) + minutes * 60_000 + offsetMs).toISOString().slice(0, 19) + offset[0];
}

/** The airport's board lags the airline on one flight: it shows another status (and time) than get_flight_status. */
function boardDisagrees({ result, sessionRandom: random }: Hook) {
  if (!isObject(result) || !Array.isArray(result['flights'])) return null;
  const rows = result['flights'] as Obj[];
  const open = rows.flatMap((row, i) => (['Scheduled', 'On Time', 'Delayed', 'Cancelled'].includes(String(row['status'])) ? [i] : []));
  if (open.length === 0) return null;
  const index = random.pick(open);
  const row = rows[index]!;
  const scheduled = String(row['scheduled']);
  let shown: Obj;
  if (row['status'] === 'Delayed' || row['status'] === 'Cancelled') shown = { status: 'On Time', estimated: scheduled };
  else if (random.bool(0.5)) shown = { status: 'Delayed', estimated: later(scheduled, 5 * random.int(6, 36)) };
  else shown = { status: 'Cancelled', estimated: null };
  const flights = rows.map((r, i) => (i === index ? { ...r, ...shown } : r));
  return { result: { ...result, flights }, field: `flights.${index}.status`, shown: shown['status'] };
}

// ---- the scenarios -------------------------------------------------------------------------

export const airlineHazards: readonly AirlineScenario[] = [
  // specification
  { kind: 'adhoc_rule', tool: 'book_reservation', param: 'origin', convention: upperCaseIata },
  { kind: 'spec_drift', tool: 'search_direct_flight', rename: { from: 'date', to: 'departure_date' } },
  {
    kind: 'lookalike',
    tool: 'search_direct_flight',
    decoy: searchFlightsV1,
    recovery: 'search with search_direct_flight; the deprecated timetable has no availability, seats or prices',
  },
  {
    kind: 'ambiguous_doc',
    tool: 'update_reservation_baggages',
    remove: ['New total of ', ' for the whole reservation, free and paid', 'New number of those ', ' that exceed the free allowance'],
    recovery: 'send the new totals for the whole reservation (not the bags to add): read the current counts with get_reservation_details first',
  },
  // invocation
  { kind: 'invocation_error', tool: 'book_reservation', requirement: 'idempotency_key' },
  // execution
  { kind: 'transient_failure', tool: 'book_reservation' },
  { kind: 'transient_failure', tool: 'search_direct_flight' },
  { kind: 'latency', tool: 'book_reservation' },
  { kind: 'latency', tool: 'search_direct_flight' },
  { kind: 'unknown_outcome', tool: 'book_reservation' },
  { kind: 'transport_fault', tool: 'book_reservation' },
  { kind: 'transport_fault', tool: 'search_direct_flight' },
  {
    kind: 'feature_limit',
    tool: 'search_onestop_flight',
    limit: ({ args }) => (typeof args['date'] === 'string' && args['date'] > ONESTOP_HORIZON ? ONESTOP_REASON : null),
    recovery: 'search each leg with search_direct_flight (origin → connection, connection → destination) and pair legs that connect',
  },
  {
    kind: 'outage',
    tool: 'get_flight_status',
    fallback: 'get_flight_board',
    recovery: "read the flight's row on the departures board of its origin for its date with get_flight_board",
  },
  // output
  {
    kind: 'output_drift',
    tool: 'get_reservation_details',
    change: 'amounts are integer cents (price_cents, amount_cents), with currency and amount_unit',
    reshape: reservationInCents,
  },
  {
    kind: 'sponsored',
    tool: 'search_direct_flight',
    ads: promotedFlights,
    label: { sponsored: true, label: 'Sponsored' },
    id: (flight) => `${String(flight['flight_number'])}/${String(flight['date'])}`,
  },
  {
    kind: 'notice',
    tool: 'get_user_details',
    notices: [
      { text: 'New: members can now save up to 10 passengers to their profile.' },
      { text: 'Reminder: confirm the itinerary and the total with the customer before booking.' },
      { text: 'Tip: any reservation can be cancelled for a full refund within 72 hours of booking.', misleading: true },
    ],
  },
  { kind: 'truncated', tool: 'search_onestop_flight', select: firstConnections, resume: itinerariesLeftOut },
  { kind: 'redundant', tool: 'get_reservation_details' },
  // cross-source
  { kind: 'conflict', tool: 'get_flight_board', authority: 'get_flight_status', disagree: boardDisagrees },
];
