import t from 'tap';
import { startServer } from '../../../helpers/server.js';
import { findReservation } from '../../../helpers/airline.js';

t.test('get_reservation_details', async (t) => {
  const server = await startServer(t);
  const reservation = findReservation((r) => r.status !== 'cancelled' && r.flights.length > 1);

  t.test('returns the reservation as stored', async (t) => {
    const session = await server.newSession();
    const reply = await server.call('airline', 'get_reservation_details', { reservation_id: reservation.reservation_id }, session);
    t.equal(reply.status, 200);
    t.strictSame(reply.body, reservation);
  });

  t.test('a cancelled reservation is returned too, with its status', async (t) => {
    const cancelled = findReservation((r) => r.status === 'cancelled');
    const reply = await server.call('airline', 'get_reservation_details', { reservation_id: cancelled.reservation_id }, await server.newSession());
    t.equal(reply.status, 200);
    t.equal(reply.body.status, 'cancelled');
  });

  t.test('resolves a lower-case id, as tau2-bench does', async (t) => {
    const reply = await server.call(
      'airline',
      'get_reservation_details',
      { reservation_id: reservation.reservation_id.toLowerCase() },
      await server.newSession(),
    );
    t.equal(reply.status, 200);
    t.equal(reply.body.reservation_id, reservation.reservation_id);
  });

  t.test('an unknown reservation is "Reservation {id} not found" (404)', async (t) => {
    const session = await server.newSession();
    for (const reservation_id of ['ZZZZZZ', 'HATHAT', '']) {
      const reply = await server.call('airline', 'get_reservation_details', { reservation_id }, session);
      t.equal(reply.status, 404, reservation_id);
      t.equal(reply.body.detail, `Reservation ${reservation_id} not found`);
      t.equal(reply.body.code, 'reservation_not_found');
    }
  });

  t.test('invalid arguments answer 400 naming the field', async (t) => {
    const session = await server.newSession();
    const cases = [
      { args: {}, field: 'reservation_id' },
      { args: { reservation_id: ['X'] }, field: 'reservation_id' },
      { args: { reservation_id: reservation.reservation_id, user_id: 'x' }, field: 'user_id' },
    ];
    for (const { args, field } of cases) {
      const reply = await server.call('airline', 'get_reservation_details', args, session);
      t.equal(reply.status, 400, JSON.stringify(args));
      t.equal(reply.body.errors[0].field, field);
    }
  });
});
