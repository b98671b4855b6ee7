import t from 'tap';
import type { SeatMap } from '../../../../domains/airline/schema.js';
import getSeatMap from '../../../../domains/airline/tools/get_seat_map.js';
import { findFlightDate } from '../../../helpers/airline.js';
import { clockAt, estMs, estOf, scheduledEst, seatMapOf, seatMapOrDefault, seatsOfLayout, startAirline } from '../../../helpers/airline-extra.js';

const NOW = '2024-05-15T15:00:00';

/** What get_seat_map must answer for a seat map, cabins front first. */
function expectedCabins(map: SeatMap) {
  return (['business', 'economy', 'basic_economy'] as const).map((cabin) => {
    const layout = map.cabins[cabin];
    const seats = seatsOfLayout(layout);
    const available = seats.filter((seat) => !(seat in map.assigned));
    return {
      cabin,
      rows: layout.rows,
      letters: layout.letters,
      window: `${layout.letters[0]}${layout.letters.at(-1)}`,
      aisle: layout.letters.slice(layout.letters.length / 2 - 1, layout.letters.length / 2 + 1),
      total: seats.length,
      available_count: available.length,
      available,
      occupied: seats.filter((seat) => seat in map.assigned),
    };
  });
}

t.test('get_seat_map', async (t) => {
  const server = await startAirline(t);
  const withPassengers = findFlightDate(
    ({ flight, date, instance }) => instance.status === 'available' && Object.keys(seatMapOf(flight.flight_number, date)?.assigned ?? {}).length >= 3,
  );
  const { flight, date } = withPassengers;
  const map = seatMapOf(flight.flight_number, date)!;

  t.test('every cabin, front first: layout, free and taken seats (not who holds them)', async (t) => {
    const session = await clockAt(server, NOW);
    const reply = await server.call('airline', 'get_seat_map', { flight_number: flight.flight_number, date }, session);
    t.equal(reply.status, 200);
    t.ok(getSeatMap.output.safeParse(reply.body).success, 'matches the declared output');
    t.same(reply.body, { flight_number: flight.flight_number, date, origin: flight.origin, destination: flight.destination, cabins: expectedCabins(map) });
    t.notMatch(JSON.stringify(reply.body), /reservation_id|first_name/, 'no passenger data');
    t.same((await server.request('GET', `/sessions/${session}/diff`)).body.airline, [], 'reads only');
  });

  t.test('one cabin when asked; a lower-case flight number is accepted', async (t) => {
    const reply = await server.call('airline', 'get_seat_map', { flight_number: flight.flight_number.toLowerCase(), date, cabin: 'business' });
    t.equal(reply.status, 200);
    t.equal(reply.body.flight_number, flight.flight_number);
    t.same(
      reply.body.cabins,
      expectedCabins(map).filter((c) => c.cabin === 'business'),
    );
    t.same(reply.body.cabins[0].window, 'AF');
    t.same(reply.body.cabins[0].aisle, 'CD');
  });

  t.test('on time and delayed flights still have their seat map', async (t) => {
    for (const status of ['on time', 'delayed']) {
      const found = findFlightDate(
        ({ instance }) => instance.status === status && estMs((instance as { estimated_departure_time_est: string }).estimated_departure_time_est) > estMs(NOW),
      );
      const reply = await server.call('airline', 'get_seat_map', { flight_number: found.flight.flight_number, date: found.date }, await clockAt(server, NOW));
      t.equal(reply.status, 200, status);
      t.same(reply.body.cabins, expectedCabins(seatMapOrDefault(found.flight.flight_number, found.date)));
    }
  });

  t.test('cancelled, departed (flying) and landed flights: 409; so is a flight the session clock has seen leave', async (t) => {
    const session = await clockAt(server, NOW);
    const pick = (status: string) => findFlightDate(({ date: d, instance }) => d === '2024-05-15' && instance.status === status);
    const cases = [
      { found: pick('cancelled'), detail: 'is cancelled', code: 'flight_cancelled' },
      { found: pick('flying'), detail: 'has already departed', code: 'flight_departed' },
      { found: pick('landed'), detail: 'has already landed', code: 'flight_landed' },
    ];
    for (const { found, detail, code } of cases) {
      const reply = await server.call('airline', 'get_seat_map', { flight_number: found.flight.flight_number, date: found.date }, session);
      t.equal(reply.status, 409, found.instance.status);
      t.equal(reply.body.detail, `Flight ${found.flight.flight_number} on ${found.date} ${detail}`);
      t.equal(reply.body.code, code);
    }
    const departure = scheduledEst(date, flight.scheduled_departure_time_est);
    const arrival = scheduledEst(date, flight.scheduled_arrival_time_est);
    const boarding = await server.call('airline', 'get_seat_map', { flight_number: flight.flight_number, date }, await clockAt(server, departure));
    t.equal(boarding.status, 200, 'still there at the departure time (boarding)');
    const left = await server.call(
      'airline',
      'get_seat_map',
      { flight_number: flight.flight_number, date },
      await clockAt(server, estOf(estMs(departure) + 1000)),
    );
    t.equal(left.status, 409);
    t.equal(left.body.detail, `Flight ${flight.flight_number} on ${date} has already departed`);
    const landed = await server.call(
      'airline',
      'get_seat_map',
      { flight_number: flight.flight_number, date },
      await clockAt(server, estOf(estMs(arrival) + 1000)),
    );
    t.equal(landed.body.detail, `Flight ${flight.flight_number} on ${date} has already landed`);
  });

  t.test('unknown flight or date: 404 (tau2-bench messages); bad arguments: 400', async (t) => {
    const cases = [
      { args: { flight_number: 'HAT999X', date }, detail: 'Flight HAT999X not found' },
      { args: { flight_number: flight.flight_number, date: '2023-01-01' }, detail: `Flight ${flight.flight_number} not found on date 2023-01-01` },
    ];
    for (const { args, detail } of cases) {
      const reply = await server.call('airline', 'get_seat_map', args);
      t.equal(reply.status, 404, detail);
      t.equal(reply.body.detail, detail);
    }
    for (const args of [{ flight_number: flight.flight_number, date, cabin: 'first' }, { flight_number: 42, date }, { flight_number: flight.flight_number }]) {
      const reply = await server.call('airline', 'get_seat_map', args);
      t.equal(reply.status, 400, JSON.stringify(args));
      t.equal(reply.body.code, 'invalid_input');
    }
  });

  t.test('a flight date without a seat map gets the default layout, nobody seated', async (t) => {
    const bare = findFlightDate(({ flight: f, date: d, instance }) => instance.status === 'available' && seatMapOf(f.flight_number, d) === undefined);
    const session = await clockAt(server, NOW);
    const reply = await server.call('airline', 'get_seat_map', { flight_number: bare.flight.flight_number, date: bare.date }, session);
    t.equal(reply.status, 200);
    const cabins = expectedCabins(seatMapOrDefault(bare.flight.flight_number, bare.date));
    t.same(reply.body.cabins, cabins);
    t.same(
      cabins.map((c) => [c.cabin, c.rows, c.letters, c.occupied.length]),
      [
        ['business', [1, 4], 'ACDF', 0],
        ['economy', [10, 30], 'ABCDEF', 0],
        ['basic_economy', [31, 38], 'ABCDEF', 0],
      ],
    );
    t.same((await server.request('GET', `/sessions/${session}/diff`)).body.airline, [], 'reading writes nothing');
  });
});
