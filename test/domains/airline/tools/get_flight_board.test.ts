import t from 'tap';
import type { Flight, FlightDateStatus } from '../../../../domains/airline/schema.js';
import getFlightBoard from '../../../../domains/airline/tools/get_flight_board.js';
import { localTime } from '../../../../domains/airline/operations.js';
import { airlineFixture, findFlightDate } from '../../../helpers/airline.js';
import { clockAt, estMs, estOf, localOf, scheduledEst, startAirline } from '../../../helpers/airline-extra.js';

const NOW = '2024-05-15T15:00:00';
const BOARDING_MS = 40 * 60_000;

/** The board's row for a flight, as the tool's rules say it must be at `now` (Eastern). */
function expectedRow(flight: Flight, date: string, s: FlightDateStatus, direction: 'departures' | 'arrivals', now: string, timeZone: string) {
  const db = airlineFixture();
  const local = (value: string | undefined) => (value === undefined ? null : localOf(value, timeZone));
  const schedDep = scheduledEst(date, flight.scheduled_departure_time_est);
  const schedArr = scheduledEst(date, flight.scheduled_arrival_time_est);
  const estDep = 'estimated_departure_time_est' in s ? s.estimated_departure_time_est : undefined;
  const estArr = 'estimated_arrival_time_est' in s ? s.estimated_arrival_time_est : undefined;
  const actDep = 'actual_departure_time_est' in s ? s.actual_departure_time_est : undefined;
  const actArr = 'actual_arrival_time_est' in s ? s.actual_arrival_time_est : undefined;
  const dep = actDep ?? estDep ?? schedDep;
  const arr = actArr ?? estArr ?? schedArr;
  const t = estMs(now);
  const phase =
    s.status === 'cancelled'
      ? 'cancelled'
      : s.status === 'landed' || t > estMs(arr)
        ? 'landed'
        : s.status === 'flying' || t > estMs(dep)
          ? 'departed'
          : t >= estMs(dep) - BOARDING_MS
            ? 'boarding'
            : 'scheduled';
  const airlineWord = s.status === 'delayed' ? 'Delayed' : s.status === 'on time' ? 'On Time' : 'Scheduled';
  if (direction === 'departures') {
    const gone = phase === 'departed' || phase === 'landed';
    return {
      flight_number: flight.flight_number,
      to: flight.destination,
      city: db.airports[flight.destination]!.city,
      scheduled: localOf(schedDep, timeZone),
      estimated: gone || phase === 'cancelled' ? null : local(estDep),
      actual: gone ? localOf(dep, timeZone) : null,
      status: phase === 'cancelled' ? 'Cancelled' : phase === 'boarding' ? 'Boarding' : gone ? 'Departed' : airlineWord,
    };
  }
  return {
    flight_number: flight.flight_number,
    from: flight.origin,
    city: db.airports[flight.origin]!.city,
    scheduled: localOf(schedArr, timeZone),
    estimated: phase === 'landed' || phase === 'cancelled' ? null : local(estArr),
    actual: phase === 'landed' ? localOf(arr, timeZone) : null,
    status: phase === 'cancelled' ? 'Cancelled' : phase === 'landed' ? 'Landed' : phase === 'departed' ? 'In Air' : airlineWord,
  };
}

/** The airport whose departures on the date show the most different airline statuses. */
function busiestAirport(date: string): string {
  const statuses = new Map<string, Set<string>>();
  for (const flight of Object.values(airlineFixture().flights)) {
    const s = flight.dates[date];
    if (s) statuses.set(flight.origin, (statuses.get(flight.origin) ?? new Set()).add(s.status));
  }
  return [...statuses].sort((a, b) => b[1].size - a[1].size || a[0].localeCompare(b[0]))[0]![0];
}

t.test('get_flight_board', async (t) => {
  const server = await startAirline(t);
  const db = airlineFixture();
  const date = '2024-05-15';
  const airport = busiestAirport(date);
  const timeZone = db.airports[airport]!.timezone;

  for (const direction of ['departures', 'arrivals'] as const) {
    t.test(`${direction}: every flight of the date, in scheduled order, local times, status from the airline's status and the clock`, async (t) => {
      const session = await clockAt(server, NOW);
      const reply = await server.call('airline', 'get_flight_board', { airport, date, direction }, session);
      t.equal(reply.status, 200);
      t.ok(getFlightBoard.output.safeParse(reply.body).success, 'matches the declared output');
      const here = Object.values(db.flights).filter((f) => (direction === 'departures' ? f.origin : f.destination) === airport && f.dates[date]);
      const rows = here.map((f) => expectedRow(f, date, f.dates[date]!, direction, NOW, timeZone));
      rows.sort((a, b) => a.scheduled.localeCompare(b.scheduled) || a.flight_number.localeCompare(b.flight_number));
      t.match(reply.body, { airport, name: db.airports[airport]!.name, timezone: timeZone, date, direction, as_of: localOf(NOW, timeZone) });
      t.same(
        reply.body.flights.map(({ gate: _g, terminal: _t, ...row }: Record<string, unknown>) => row),
        rows,
      );
      const words = new Set(reply.body.flights.map((row: { status: string }) => row.status));
      t.ok(words.size >= 3, `several statuses on one board (${[...words].join(', ')})`);
      for (const row of reply.body.flights) t.match(row, { gate: /^[A-E]([1-9]|[12]\d|30)$/, terminal: /^[123]$/ });
      t.same((await server.request('GET', `/sessions/${session}/diff`)).body.airline, [], 'reads only');
    });
  }

  t.test('each airline status as the board words it', async (t) => {
    const cases: { status: string; departures: string; arrivals: string }[] = [
      { status: 'cancelled', departures: 'Cancelled', arrivals: 'Cancelled' },
      { status: 'landed', departures: 'Departed', arrivals: 'Landed' },
      { status: 'flying', departures: 'Departed', arrivals: 'In Air' },
    ];
    const session = await clockAt(server, NOW);
    for (const c of cases) {
      const { flight, date: d } = findFlightDate(({ date: fd, instance }) => fd === date && instance.status === c.status);
      for (const direction of ['departures', 'arrivals'] as const) {
        const at = direction === 'departures' ? flight.origin : flight.destination;
        const board = (await server.call('airline', 'get_flight_board', { airport: at, date: d, direction }, session)).body;
        const row = board.flights.find((r: { flight_number: string }) => r.flight_number === flight.flight_number);
        t.equal(row.status, c[direction], `${c.status} on the ${direction} board`);
      }
    }
    // On time and delayed, not yet boarding: the airline's word; boarding from 40 minutes before departure.
    for (const status of ['on time', 'delayed'] as const) {
      const { flight } = findFlightDate(
        ({ date: fd, instance }) => fd === date && instance.status === status && estMs(instance.estimated_departure_time_est) - estMs(NOW) > BOARDING_MS,
      );
      const s = flight.dates[date] as Extract<FlightDateStatus, { status: 'on time' | 'delayed' }>;
      const board = (await server.call('airline', 'get_flight_board', { airport: flight.origin, date, direction: 'departures' }, session)).body;
      const row = board.flights.find((r: { flight_number: string }) => r.flight_number === flight.flight_number);
      t.match(row, {
        status: status === 'on time' ? 'On Time' : 'Delayed',
        estimated: localOf(s.estimated_departure_time_est, db.airports[flight.origin]!.timezone),
        actual: null,
      });
    }
  });

  t.test('the session clock moves a flight along: scheduled, boarding, departed / in the air, landed', async (t) => {
    const { flight, date: d } = findFlightDate(({ date: fd, instance }) => fd === '2024-05-16' && instance.status === 'available');
    const departure = scheduledEst(d, flight.scheduled_departure_time_est);
    const arrival = scheduledEst(d, flight.scheduled_arrival_time_est);
    const at = (ms: number) => estOf(ms);
    const steps = [
      { now: NOW, departures: 'Scheduled', arrivals: 'Scheduled' },
      { now: at(estMs(departure) - BOARDING_MS - 1000), departures: 'Scheduled', arrivals: 'Scheduled' },
      { now: at(estMs(departure) - BOARDING_MS), departures: 'Boarding', arrivals: 'Scheduled' },
      { now: departure, departures: 'Boarding', arrivals: 'Scheduled' },
      { now: at(estMs(departure) + 1000), departures: 'Departed', arrivals: 'In Air' },
      { now: arrival, departures: 'Departed', arrivals: 'In Air' },
      { now: at(estMs(arrival) + 1000), departures: 'Departed', arrivals: 'Landed' },
    ];
    const depZone = db.airports[flight.origin]!.timezone;
    const arrZone = db.airports[flight.destination]!.timezone;
    for (const step of steps) {
      const session = await clockAt(server, step.now);
      const dep = (await server.call('airline', 'get_flight_board', { airport: flight.origin, date: d, direction: 'departures' }, session)).body;
      const arr = (await server.call('airline', 'get_flight_board', { airport: flight.destination, date: d, direction: 'arrivals' }, session)).body;
      const depRow = dep.flights.find((r: { flight_number: string }) => r.flight_number === flight.flight_number);
      const arrRow = arr.flights.find((r: { flight_number: string }) => r.flight_number === flight.flight_number);
      t.equal(depRow.status, step.departures, `departures at ${step.now}`);
      t.equal(arrRow.status, step.arrivals, `arrivals at ${step.now}`);
      t.equal(depRow.estimated, null, 'an available flight has no estimate');
      t.equal(depRow.actual, step.departures === 'Departed' ? localOf(departure, depZone) : null);
      t.equal(arrRow.actual, step.arrivals === 'Landed' ? localOf(arrival, arrZone) : null);
      t.equal(dep.as_of, localOf(step.now, depZone));
    }
  });

  t.test('gates: the same for a flight on a date on every call and in every session, per airport', async (t) => {
    const { flight, date: d } = findFlightDate(({ date: fd }) => fd === '2024-05-17');
    const rowOf = async (session: string, airport: string, direction: string) =>
      (await server.call('airline', 'get_flight_board', { airport, date: d, direction }, session)).body.flights.find(
        (r: { flight_number: string }) => r.flight_number === flight.flight_number,
      );
    const a = await rowOf(await server.newSession(), flight.origin, 'departures');
    const b = await rowOf(await server.newSession({ clock: { start: '2024-05-17T05:00:00Z', step_ms: 0 } }), flight.origin, 'departures');
    t.same([a.gate, a.terminal], [b.gate, b.terminal]);
    const arrival = await rowOf(await server.newSession(), flight.destination, 'arrivals');
    t.match(arrival, { gate: String, terminal: String });
    const gates = new Set<string>();
    const board = (await server.call('airline', 'get_flight_board', { airport: flight.origin, date: d, direction: 'departures' })).body;
    for (const row of board.flights) gates.add(row.gate);
    t.ok(gates.size > board.flights.length / 3, 'flights get different gates');
  });

  t.test('a lower-case code is accepted; a day without flights gives an empty board', async (t) => {
    const reply = await server.call('airline', 'get_flight_board', { airport: airport.toLowerCase(), date, direction: 'departures' });
    t.equal(reply.status, 200);
    t.equal(reply.body.airport, airport);
    const empty = await server.call('airline', 'get_flight_board', { airport, date: '2023-01-01', direction: 'arrivals' });
    t.equal(empty.status, 200);
    t.same(empty.body.flights, []);
  });

  t.test('local times carry the zone offset, summer or winter, UTC included', async (t) => {
    const at = new Date('2024-05-15T20:00:00Z');
    t.equal(localTime(at, 'America/New_York'), '2024-05-15T16:00:00-04:00');
    t.equal(localTime(at, 'America/Phoenix'), '2024-05-15T13:00:00-07:00');
    t.equal(localTime(at, 'Pacific/Honolulu'), '2024-05-15T10:00:00-10:00');
    t.equal(localTime(at, 'UTC'), '2024-05-15T20:00:00+00:00');
    t.equal(localTime(new Date('2024-01-15T04:30:00Z'), 'America/Chicago'), '2024-01-14T22:30:00-06:00');
  });

  t.test('an unknown airport is 404; bad arguments are 400', async (t) => {
    const unknown = await server.call('airline', 'get_flight_board', { airport: 'XQZ', date, direction: 'departures' });
    t.equal(unknown.status, 404);
    t.equal(unknown.body.detail, 'Airport XQZ not found');
    t.equal(unknown.body.code, 'airport_not_found');
    const bad = [
      { airport, date, direction: 'both' },
      { airport, date: '15/05/2024', direction: 'departures' },
      { airport: 123, date, direction: 'departures' },
      { airport, date },
      { airport, date, direction: 'arrivals', extra: true },
    ];
    for (const args of bad) {
      const reply = await server.call('airline', 'get_flight_board', args);
      t.equal(reply.status, 400, JSON.stringify(args));
      t.equal(reply.body.code, 'invalid_input');
    }
  });
});
