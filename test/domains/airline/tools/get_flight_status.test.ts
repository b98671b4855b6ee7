import t from 'tap';
import { FLIGHT_STATUSES } from '../../../../domains/airline/schema.js';
import { startServer } from '../../../helpers/server.js';
import { airlineFixture, findFlightDate } from '../../../helpers/airline.js';

t.test('get_flight_status', async (t) => {
  const server = await startServer(t);

  t.test('returns the bare status string of the flight on that date, for each status the fixture holds', async (t) => {
    const session = await server.newSession();
    for (const status of FLIGHT_STATUSES) {
      const { flight, date } = findFlightDate(({ instance }) => instance.status === status);
      const reply = await server.call('airline', 'get_flight_status', { flight_number: flight.flight_number, date }, session);
      t.equal(reply.status, 200, status);
      t.equal(reply.body, status);
    }
  });

  t.test('resolves a lower-case flight number', async (t) => {
    const { flight, date, instance } = findFlightDate(() => true);
    const reply = await server.call('airline', 'get_flight_status', { flight_number: flight.flight_number.toLowerCase(), date }, await server.newSession());
    t.equal(reply.status, 200);
    t.equal(reply.body, instance.status);
  });

  t.test('unknown flight (404) and a date the flight does not fly (404)', async (t) => {
    const session = await server.newSession();
    const flight = Object.values(airlineFixture().flights)[0]!;
    const cases = [
      { args: { flight_number: 'XYZ999', date: '2024-05-16' }, detail: 'Flight XYZ999 not found', code: 'flight_not_found' },
      {
        args: { flight_number: flight.flight_number, date: '2023-01-01' },
        detail: `Flight ${flight.flight_number} not found on date 2023-01-01`,
        code: 'flight_date_not_found',
      },
    ];
    for (const { args, detail, code } of cases) {
      const reply = await server.call('airline', 'get_flight_status', args, session);
      t.equal(reply.status, 404, detail);
      t.equal(reply.body.detail, detail);
      t.equal(reply.body.code, code);
    }
  });

  t.test('invalid arguments answer 400 naming the field', async (t) => {
    const session = await server.newSession();
    const flight = Object.values(airlineFixture().flights)[0]!;
    const cases = [
      { args: { date: '2024-05-16' }, field: 'flight_number' },
      { args: { flight_number: flight.flight_number }, field: 'date' },
      { args: { flight_number: flight.flight_number, date: 'May 16' }, field: 'date' },
      { args: { flight_number: flight.flight_number, date: '2024-05-16', cabin: 'economy' }, field: 'cabin' },
    ];
    for (const { args, field } of cases) {
      const reply = await server.call('airline', 'get_flight_status', args, session);
      t.equal(reply.status, 400, JSON.stringify(args));
      t.equal(reply.body.errors[0].field, field);
    }
  });
});
