import t from 'tap';
import { startServer } from '../../../helpers/server.js';
import { airlineFixture } from '../../../helpers/airline.js';

t.test('list_all_airports', async (t) => {
  const server = await startServer(t);

  t.test('lists every airport of the airports table as {iata, city}, in table order', async (t) => {
    const reply = await server.call('airline', 'list_all_airports', {}, await server.newSession());
    t.equal(reply.status, 200);
    const airports = Object.values(airlineFixture().airports);
    t.ok(airports.length >= 20, 'at least the 20 airports of tau2-bench');
    t.strictSame(
      reply.body,
      airports.map(({ iata, city }) => ({ iata, city })),
    );
  });

  t.test('every airport a flight serves is listed', async (t) => {
    const reply = await server.call('airline', 'list_all_airports', {}, await server.newSession());
    const listed = new Set(reply.body.map((a: { iata: string }) => a.iata));
    for (const flight of Object.values(airlineFixture().flights)) {
      if (!listed.has(flight.origin) || !listed.has(flight.destination)) t.fail(`${flight.flight_number} serves an unlisted airport`);
    }
    t.pass('all listed');
  });

  t.test('an unknown argument answers 400 naming it', async (t) => {
    const reply = await server.call('airline', 'list_all_airports', { city: 'Boston' }, await server.newSession());
    t.equal(reply.status, 400);
    t.equal(reply.body.errors[0].field, 'city');
  });
});
