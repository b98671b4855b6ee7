import t from 'tap';
import { startServer } from '../../../helpers/server.js';
import { airlineFixture, findFlightDate, isAvailable } from '../../../helpers/airline.js';

t.test('search_direct_flight', async (t) => {
  const server = await startServer(t);
  const db = airlineFixture();
  /** What the search must answer, computed from the fixture. */
  const expected = (origin: string, destination: string, date: string) =>
    Object.values(db.flights).flatMap((flight) => {
      const instance = flight.dates[date];
      if (flight.origin !== origin || flight.destination !== destination || !isAvailable(instance)) return [];
      return [
        {
          flight_number: flight.flight_number,
          origin,
          destination,
          status: 'available',
          scheduled_departure_time_est: flight.scheduled_departure_time_est,
          scheduled_arrival_time_est: flight.scheduled_arrival_time_est,
          date,
          available_seats: instance.available_seats,
          prices: instance.prices,
          sponsored: false,
        },
      ];
    });

  t.test('lists the available flights of the route on that date, with seats and prices, its date, not sponsored', async (t) => {
    const { flight, date } = findFlightDate(({ instance }) => isAvailable(instance));
    const reply = await server.call(
      'airline',
      'search_direct_flight',
      { origin: flight.origin, destination: flight.destination, date },
      await server.newSession(),
    );
    t.equal(reply.status, 200);
    t.ok(reply.body.length >= 1);
    t.strictSame(reply.body, expected(flight.origin, flight.destination, date));
  });

  t.test('leaves out flights of the route that are not available that day', async (t) => {
    const { flight, date, instance } = findFlightDate(({ instance }) => instance.status !== 'available');
    const reply = await server.call(
      'airline',
      'search_direct_flight',
      { origin: flight.origin, destination: flight.destination, date },
      await server.newSession(),
    );
    t.equal(reply.status, 200);
    t.notOk(
      reply.body.some((f: { flight_number: string }) => f.flight_number === flight.flight_number),
      `${instance.status} is left out`,
    );
    t.strictSame(reply.body, expected(flight.origin, flight.destination, date));
  });

  t.test('an unknown route or a date without flights is an empty list', async (t) => {
    const { flight } = findFlightDate(() => true);
    const session = await server.newSession();
    for (const args of [
      { origin: flight.origin, destination: flight.origin, date: '2024-05-20' },
      { origin: 'XXX', destination: flight.destination, date: '2024-05-20' },
      { origin: flight.origin, destination: flight.destination, date: '2030-01-01' },
    ]) {
      const reply = await server.call('airline', 'search_direct_flight', args, session);
      t.equal(reply.status, 200);
      t.strictSame(reply.body, [], JSON.stringify(args));
    }
  });

  t.test('invalid arguments answer 400 naming the field', async (t) => {
    const session = await server.newSession();
    const valid = { origin: 'JFK', destination: 'LAX', date: '2024-05-20' };
    const cases = [
      { args: { destination: 'LAX', date: '2024-05-20' }, field: 'origin' },
      { args: { ...valid, destination: 5 }, field: 'destination' },
      { args: { ...valid, date: '20/05/2024' }, field: 'date' },
      { args: { ...valid, cabin: 'economy' }, field: 'cabin' },
    ];
    for (const { args, field } of cases) {
      const reply = await server.call('airline', 'search_direct_flight', args, session);
      t.equal(reply.status, 400, JSON.stringify(args));
      t.equal(reply.body.errors[0].field, field);
    }
  });
});
