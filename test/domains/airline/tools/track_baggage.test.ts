import t from 'tap';
import trackBaggage from '../../../../domains/airline/tools/track_baggage.js';
import { airlineFixture } from '../../../helpers/airline.js';
import { expectRejections } from '../../../helpers/server.js';
import { bagsOf, startAirline } from '../../../helpers/airline-extra.js';

t.test('track_baggage', async (t) => {
  const server = await startAirline(t);
  const db = airlineFixture();
  const bags = Object.values(db.bags);
  // A reservation with several bags, and a bag whose journey has more than one event.
  const reservationId = bags.map((bag) => bag.reservation_id).find((id) => bagsOf(id).length >= 2)!;
  const travelled = bags.find((bag) => bag.events.length >= 3)!;

  t.test('by tag: that bag, with its status, last location and events oldest first', async (t) => {
    const session = await server.newSession();
    const reply = await server.call('airline', 'track_baggage', { tag: travelled.tag }, session);
    t.equal(reply.status, 200);
    t.ok(trackBaggage.output.safeParse(reply.body).success, 'matches the declared output');
    t.same(reply.body, { bags: [travelled], as_of: '2024-05-15T15:00:00', cache: 'MISS' }, 'read live, as of the session clock');
    t.equal(reply.body.bags[0].status, travelled.events.at(-1)!.status, 'status is the last event');
    t.same((await server.request('GET', `/sessions/${session}/diff`)).body.airline, [], 'reads only');
  });

  t.test('by reservation: every bag of it, ordered by tag; a reservation without bags has none', async (t) => {
    const reply = await server.call('airline', 'track_baggage', { reservation_id: reservationId.toLowerCase() });
    t.equal(reply.status, 200);
    t.same(reply.body, { bags: bagsOf(reservationId), as_of: reply.body.as_of, cache: 'MISS' });
    const without = Object.values(db.reservations).find((r) => bagsOf(r.reservation_id).length === 0)!;
    const none = await server.call('airline', 'track_baggage', { reservation_id: without.reservation_id });
    t.equal(none.status, 200);
    t.same(none.body, { bags: [], as_of: none.body.as_of, cache: 'MISS' });
  });

  t.test('exactly one of tag or reservation_id (422); unknown ones are 404; bad types are 400', async (t) => {
    const cases = [
      { args: {}, status: 422, detail: 'Give exactly one of tag or reservation_id' },
      { args: { tag: travelled.tag, reservation_id: travelled.reservation_id }, status: 422, detail: 'Give exactly one of tag or reservation_id' },
      { args: { tag: '0000000000' }, status: 404, detail: 'Bag 0000000000 not found' },
      { args: { reservation_id: 'NOPE00' }, status: 404, detail: 'Reservation NOPE00 not found' },
    ];
    await expectRejections(t, server, 'airline', 'track_baggage', cases);
    for (const args of [{ tag: Number(travelled.tag) }, { tag: '' }, { reservation_id: ['X'] }, { tag: travelled.tag, flight: 'HAT001' }]) {
      const reply = await server.call('airline', 'track_baggage', args);
      t.equal(reply.status, 400, JSON.stringify(args));
      t.equal(reply.body.code, 'invalid_input');
    }
  });
});
