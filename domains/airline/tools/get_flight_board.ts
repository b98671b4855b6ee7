import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { toolError } from '../../errors.js';
import { AIRLINE_ERRORS } from '../errors.js';
import { own } from '../../../lib/own.js';
import { airportCode, flightDate } from '../fields.js';
import type { AirlineDb } from '../db.js';
import { arrivalOf, departureOf, gateOf, instanceOf, localTime, phaseAt, type FlightInstance, type Phase } from '../operations.js';
import { codesOf } from '../../../lib/error-catalog.js';

export const BOARD_STATUSES = ['Scheduled', 'On Time', 'Delayed', 'Boarding', 'Departed', 'In Air', 'Landed', 'Cancelled'] as const;
export const DIRECTIONS = ['departures', 'arrivals'] as const;

const LocalTime = z.string().describe("Local time at the airport, ISO 8601 with its UTC offset, e.g. '2024-05-15T16:20:00-04:00'.");

export const BoardRow = z.object({
  flight_number: z.string(),
  to: z.string().optional().describe('Departures: IATA code of the destination.'),
  from: z.string().optional().describe('Arrivals: IATA code of the origin.'),
  city: z.string().describe('City of the destination (departures) or origin (arrivals).'),
  scheduled: LocalTime.describe('Scheduled departure (departures) or arrival (arrivals), local time at this airport.'),
  estimated: LocalTime.nullable().describe("The airline's expected time, when it has one; null once the flight left (departures) or landed (arrivals)."),
  actual: LocalTime.nullable().describe('When it actually departed (departures) or landed (arrivals); null until then.'),
  status: z.enum(BOARD_STATUSES),
  gate: z.string(),
  terminal: z.string(),
});

/** What the departures board says at each phase, before departure in the airline's own words. */
function departureStatus(phase: Phase, airline: string): (typeof BOARD_STATUSES)[number] {
  switch (phase) {
    case 'cancelled':
      return 'Cancelled';
    case 'boarding':
      return 'Boarding';
    case 'departed':
    case 'landed':
      return 'Departed';
    case 'scheduled':
      return airline === 'delayed' ? 'Delayed' : airline === 'on time' ? 'On Time' : 'Scheduled';
  }
}

function arrivalStatus(phase: Phase, airline: string): (typeof BOARD_STATUSES)[number] {
  switch (phase) {
    case 'cancelled':
      return 'Cancelled';
    case 'departed':
      return 'In Air';
    case 'landed':
      return 'Landed';
    case 'scheduled':
    case 'boarding':
      return airline === 'delayed' ? 'Delayed' : airline === 'on time' ? 'On Time' : 'Scheduled';
  }
}

function row(db: AirlineDb, flight: FlightInstance, direction: (typeof DIRECTIONS)[number], now: Date, timeZone: string): z.input<typeof BoardRow> {
  const { flight: f, date, instance, times } = flight;
  const phase = phaseAt(instance, times, now);
  const local = (at: Date | undefined) => (at === undefined ? null : localTime(at, timeZone));
  const happened = phase === 'departed' || phase === 'landed';
  if (direction === 'departures') {
    return {
      flight_number: f.flight_number,
      to: f.destination,
      city: db.airports.get(f.destination)?.city ?? f.destination,
      scheduled: localTime(times.scheduledDeparture, timeZone),
      estimated: happened || phase === 'cancelled' ? null : local(times.estimatedDeparture),
      actual: happened ? local(departureOf(times)) : null,
      status: departureStatus(phase, instance.status),
      ...gateOf(f.flight_number, date, f.origin),
    };
  }
  return {
    flight_number: f.flight_number,
    from: f.origin,
    city: db.airports.get(f.origin)?.city ?? f.origin,
    scheduled: localTime(times.scheduledArrival, timeZone),
    estimated: phase === 'landed' || phase === 'cancelled' ? null : local(times.estimatedArrival),
    actual: phase === 'landed' ? local(arrivalOf(times)) : null,
    status: arrivalStatus(phase, instance.status),
    ...gateOf(f.flight_number, date, f.destination),
  };
}

export default defineTool({
  name: 'get_flight_board',
  description:
    "The airport's own departures or arrivals board for one day: a second source of flight status, independent of " +
    "the airline's get_flight_status. Each row gives the flight, where it goes to or comes from, the scheduled time, " +
    "the estimated or actual time when known, the status as the airport words it ('Scheduled', 'On Time', 'Delayed', " +
    "'Boarding', 'Departed', 'In Air', 'Landed', 'Cancelled'), the gate and the terminal. Times are the airport's local " +
    'time, with their UTC offset; the airline quotes Eastern time. Quote the board for gates and airport times; the ' +
    "airline's status decides cancellations, delays and compensation.",
  input: z.strictObject({
    airport: airportCode,
    date: flightDate.describe("The flights' departure date, YYYY-MM-DD (an arrivals board lists the flights that left on that date)."),
    direction: z.enum(DIRECTIONS).describe("'departures' (flights leaving this airport) or 'arrivals' (flights coming to it)."),
  }),
  output: z.object({
    airport: z.string(),
    name: z.string().describe("The airport's name."),
    timezone: z.string().describe('IANA time zone of the local times.'),
    date: z.string(),
    direction: z.enum(DIRECTIONS),
    as_of: LocalTime.describe('When the board was read, local time.'),
    flights: z.array(BoardRow).describe('Ordered by scheduled time.'),
  }),
  errors: codesOf(AIRLINE_ERRORS, 'airport_not_found'),
  mutates: false,
  example: { airport: 'MIA', date: '2024-05-21', direction: 'departures' },
  run({ airport, date, direction }, db: AirlineDb, ctx) {
    const code = airport.trim().toUpperCase();
    const known = db.airports.get(code);
    if (!known) throw toolError(AIRLINE_ERRORS.airport_not_found, `Airport ${airport} not found`);
    const flights: FlightInstance[] = [];
    for (const flight of db.flights.values()) {
      const here = direction === 'departures' ? flight.origin : flight.destination;
      const instance = own(flight.dates, date);
      if (here !== code || instance === undefined) continue;
      flights.push(instanceOf(flight, date, instance));
    }
    const timeZone = known.timezone;
    const now = ctx.now();
    const key = (f: FlightInstance) => (direction === 'departures' ? f.times.scheduledDeparture : f.times.scheduledArrival).getTime();
    flights.sort((a, b) => key(a) - key(b) || a.flight.flight_number.localeCompare(b.flight.flight_number));
    return {
      airport: code,
      name: known.name,
      timezone: timeZone,
      date,
      direction,
      as_of: localTime(now, timeZone),
      flights: flights.map((flight) => row(db, flight, direction, now, timeZone)),
    };
  },
});
