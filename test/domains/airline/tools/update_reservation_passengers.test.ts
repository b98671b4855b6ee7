import t from 'tap';
import { expectRejections, startServer } from '../../../helpers/server.js';
import { findReservation } from '../../../helpers/airline.js';

t.test('update_reservation_passengers', async (t) => {
  const server = await startServer(t);
  const diff = async (session: string) => (await server.request('GET', `/sessions/${session}/diff`)).body.airline;
  const reservation = findReservation((r) => r.status !== 'cancelled' && r.passengers.length >= 2);
  const renamed = reservation.passengers.map((p, i) => (i === 1 ? { first_name: 'Ingrid', last_name: 'Solberg', dob: '1988-02-29' } : p));

  t.test('replaces the passengers, same count; nothing else changes', async (t) => {
    const session = await server.newSession();
    const reply = await server.call('airline', 'update_reservation_passengers', { reservation_id: reservation.reservation_id, passengers: renamed }, session);
    t.equal(reply.status, 200);
    const ticketing = renamed.map((_, passenger) => ({ passenger, status: 'updated', error: null }));
    t.strictSame(reply.body, { ...reservation, passengers: renamed, ticketing, errors: false }, 'the reservation, every ticket reissued');
    t.strictSame((await server.state(session)).airline.reservations[reservation.reservation_id], { ...reservation, passengers: renamed });
    t.strictSame(
      (await diff(session)).map((c: { table: string; id: string }) => `${c.table}/${c.id}`),
      [`reservations/${reservation.reservation_id}`],
    );
    t.strictSame((await server.state(await server.newSession())).airline.reservations[reservation.reservation_id], reservation, 'other sessions do not see it');
  });

  t.test('the count must match; the reservation must exist; nothing changes on error', async (t) => {
    const session = await server.newSession();
    const cases = [
      {
        args: { reservation_id: reservation.reservation_id, passengers: renamed.slice(1) },
        status: 422,
        detail: 'Number of passengers does not match',
        why: 'one fewer',
      },
      {
        args: { reservation_id: reservation.reservation_id, passengers: [...renamed, renamed[0]] },
        status: 422,
        detail: 'Number of passengers does not match',
        why: 'one more',
      },
      { args: { reservation_id: 'ZZZZZZ', passengers: renamed }, status: 404, detail: 'Reservation ZZZZZZ not found' },
    ];
    await expectRejections(t, server, 'airline', 'update_reservation_passengers', cases, session);
    t.same(await diff(session), [], 'no record changed');
  });

  t.test('invalid arguments answer 400 naming the field, and change nothing', async (t) => {
    const session = await server.newSession();
    const valid = { reservation_id: reservation.reservation_id, passengers: renamed };
    const cases = [
      { args: { passengers: renamed }, field: 'reservation_id' },
      { args: { ...valid, passengers: [] }, field: 'passengers' },
      { args: { ...valid, passengers: renamed[0] }, field: 'passengers' },
      { args: { ...valid, passengers: [{ ...renamed[0], dob: '02/29/1988' }, renamed[1]] }, field: 'passengers.0.dob' },
      { args: { ...valid, passengers: [renamed[0], { first_name: 'Ingrid', dob: '1988-02-29' }] }, field: 'passengers.1.last_name' },
      { args: { ...valid, passengers: [renamed[0], { ...renamed[1], seat: '12A' }] }, field: 'passengers.1.seat' },
    ];
    for (const { args, field } of cases) {
      const reply = await server.call('airline', 'update_reservation_passengers', args, session);
      t.equal(reply.status, 400, field);
      t.strictSame(
        reply.body.errors.map((e: { field: string }) => e.field),
        [field],
      );
    }
    t.same(await diff(session), [], 'no record changed');
  });
});
