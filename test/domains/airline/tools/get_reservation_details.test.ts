import t from 'tap';
import { startServer } from '../../../helpers/server.js';
import { airlineFixture, findReservation } from '../../../helpers/airline.js';

t.test('get_reservation_details', async (t) => {
  const server = await startServer(t);
  const reservation = findReservation((r) => r.status !== 'cancelled' && r.flights.length > 1);

  t.test('returns the reservation as stored', async (t) => {
    const session = await server.newSession();
    const reply = await server.call('airline', 'get_reservation_details', { reservation_id: reservation.reservation_id }, session);
    t.equal(reply.status, 200);
    const { total_price, ...rest } = reply.body;
    t.strictSame(rest, { ...reservation, remarks: reservation.remarks ?? [] }, 'the record, with its remarks');
    if (total_price !== undefined) t.equal(total_price, reservation.flights.reduce((sum, f) => sum + f.price, 0) * reservation.passengers.length);
  });

  t.test('remarks on every booking (how it was sold, then notes); a fare total only where the booking was its fares alone', async (t) => {
    const session = await server.newSession();
    const reservations = Object.values(airlineFixture().reservations).slice(0, 80);
    let remarked = 0;
    let totals = 0;
    for (const r of reservations) {
      const body = (await server.call('airline', 'get_reservation_details', { reservation_id: r.reservation_id }, session)).body;
      t.ok(Array.isArray(body.remarks), `${r.reservation_id}: remarks listed`);
      if (body.remarks.length > 0) remarked++;
      const fares = r.flights.reduce((sum, f) => sum + f.price, 0) * r.passengers.length;
      const paid = r.payment_history.reduce((sum, p) => sum + p.amount, 0);
      const fareOnly = r.status == null && r.insurance === 'no' && r.nonfree_baggages === 0 && paid === fares;
      t.equal(body.total_price, fareOnly ? fares : undefined, `${r.reservation_id}: total_price only for a booking of fares alone`);
      if (fareOnly) totals++;
    }
    t.equal(remarked, reservations.length, 'every generated booking says how it was sold');
    t.ok(totals > 0, `some show a fare total (${totals} of 80)`);
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
