import t from 'tap';
import type { AirlineDatabase, Flight } from '../../../../domains/airline/schema.js';
import { startServer } from '../../../helpers/server.js';
import { airlineFixture, isAvailable, patchedAirlineBases } from '../../../helpers/airline.js';

const leg = (flight: Flight, date: string, db: AirlineDatabase) => {
  const instance = db.flights[flight.flight_number]!.dates[date]!;
  if (!isAvailable(instance)) throw new Error('not available');
  return {
    flight_number: flight.flight_number,
    origin: flight.origin,
    destination: flight.destination,
    status: 'available',
    scheduled_departure_time_est: flight.scheduled_departure_time_est,
    scheduled_arrival_time_est: flight.scheduled_arrival_time_est,
    date,
    available_seats: instance.available_seats,
    prices: instance.prices,
    sponsored: false,
  };
};
const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** The pairs the search must answer, computed from `db` independently of the tool. */
function expectedPairs(db: AirlineDatabase, origin: string, destination: string, date: string) {
  const flights = Object.values(db.flights);
  const pairs = [];
  for (const first of flights) {
    if (first.origin !== origin || !isAvailable(first.dates[date])) continue;
    const second = first.scheduled_arrival_time_est.endsWith('+1') ? nextDay(date) : date;
    for (const next of flights) {
      if (next.origin !== first.destination || next.destination !== destination || !isAvailable(next.dates[second])) continue;
      if (next.scheduled_departure_time_est < first.scheduled_arrival_time_est) continue;
      pairs.push([leg(first, date, db), leg(next, second, db)]);
    }
  }
  return pairs;
}

t.test('search_onestop_flight', async (t) => {
  const server = await startServer(t);
  const db = airlineFixture();

  t.test('pairs of available flights through one connection, each leg with its date, seats and prices', async (t) => {
    // The first origin/destination/date of the fixture that has at least one connection.
    let found: { origin: string; destination: string; date: string; pairs: unknown[] } | undefined;
    search: for (const first of Object.values(db.flights)) {
      for (const date of Object.keys(first.dates)) {
        for (const next of Object.values(db.flights)) {
          if (next.origin !== first.destination || next.destination === first.origin) continue;
          const pairs = expectedPairs(db, first.origin, next.destination, date);
          if (pairs.length > 0) {
            found = { origin: first.origin, destination: next.destination, date, pairs };
            break search;
          }
        }
      }
    }
    t.ok(found, 'the fixture has a one-stop itinerary');
    const { origin, destination, date, pairs } = found!;
    const reply = await server.call('airline', 'search_onestop_flight', { origin, destination, date }, await server.newSession());
    t.equal(reply.status, 200);
    t.strictSame(reply.body, pairs);
    for (const [first, second] of reply.body) {
      t.equal(first.origin, origin);
      t.equal(first.destination, second.origin, 'the legs connect');
      t.equal(second.destination, destination);
      t.ok(second.scheduled_departure_time_est >= first.scheduled_arrival_time_est, 'the second leg leaves after the first arrives');
    }
  });

  t.test("a first leg arriving after midnight ('+1') connects with flights of the next day, early in the month too", async (t) => {
    // Build the situation: flight A arrives at 01:00+1 on 2024-05-05; flight B leaves A's destination at 06:00 on 2024-05-06.
    const [a, b] = (() => {
      const flights = Object.values(db.flights);
      for (const first of flights) {
        const next = flights.find((f) => f.origin === first.destination && f.destination !== first.origin);
        if (next) return [first, next] as const;
      }
      throw new Error('no connecting flights');
    })();
    const available = {
      status: 'available' as const,
      available_seats: { basic_economy: 9, economy: 9, business: 9 },
      prices: { basic_economy: 60, economy: 120, business: 400 },
    };
    const bases = await patchedAirlineBases((patched) => {
      const first = patched.flights[a.flight_number]!;
      first.scheduled_departure_time_est = '22:30:00';
      first.scheduled_arrival_time_est = '01:00:00+1';
      first.dates['2024-05-05'] = structuredClone(available);
      const second = patched.flights[b.flight_number]!;
      second.scheduled_departure_time_est = '06:00:00';
      second.dates['2024-05-06'] = structuredClone(available);
    });
    const patched = await startServer(t, { bases });
    const patchedDb = (await patched.state()).airline as AirlineDatabase;
    const reply = await patched.call(
      'airline',
      'search_onestop_flight',
      { origin: a.origin, destination: b.destination, date: '2024-05-05' },
      await patched.newSession(),
    );
    t.equal(reply.status, 200);
    const pair = reply.body.find(([x, y]: { flight_number: string }[]) => x!.flight_number === a.flight_number && y!.flight_number === b.flight_number);
    t.ok(pair, 'the overnight connection is found');
    t.equal(pair[0].date, '2024-05-05');
    t.equal(pair[1].date, '2024-05-06', 'the second leg is on the next day, a zero-padded date');
    t.strictSame(reply.body, expectedPairs(patchedDb, a.origin, b.destination, '2024-05-05'));
  });

  t.test('no connection is an empty list', async (t) => {
    const reply = await server.call('airline', 'search_onestop_flight', { origin: 'XXX', destination: 'YYY', date: '2024-05-20' }, await server.newSession());
    t.equal(reply.status, 200);
    t.strictSame(reply.body, []);
  });

  t.test('invalid arguments answer 400 naming the field', async (t) => {
    const session = await server.newSession();
    const valid = { origin: 'JFK', destination: 'SEA', date: '2024-05-20' };
    const cases = [
      { args: { origin: 'JFK', date: '2024-05-20' }, field: 'destination' },
      { args: { ...valid, origin: null }, field: 'origin' },
      { args: { ...valid, date: '2024-5-20' }, field: 'date' },
      { args: { ...valid, stops: 1 }, field: 'stops' },
    ];
    for (const { args, field } of cases) {
      const reply = await server.call('airline', 'search_onestop_flight', args, session);
      t.equal(reply.status, 400, JSON.stringify(args));
      t.equal(reply.body.errors[0].field, field);
    }
  });
});
