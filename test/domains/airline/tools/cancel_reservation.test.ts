import t from 'tap';
import { expectRejections, startServer } from '../../../helpers/server.js';
import { findReservation, instanceOf, methodsOf, userOf } from '../../../helpers/airline.js';

t.test('cancel_reservation', async (t) => {
  const server = await startServer(t);
  const diff = async (session: string) => (await server.request('GET', `/sessions/${session}/diff`)).body.airline;
  const keys = (changes: { table: string; id: string }[]) => changes.map((c) => `${c.table}/${c.id}`);

  t.test('appends a negative entry for every payment and sets status "cancelled"; nothing else changes', async (t) => {
    const reservation = findReservation(
      (r, u) =>
        r.status !== 'cancelled' && r.payment_history.length > 1 && r.payment_history.some((p) => methodsOf(u, 'gift_card').some((g) => g.id === p.payment_id)),
    );
    const session = await server.newSession();
    const reply = await server.call('airline', 'cancel_reservation', { reservation_id: reservation.reservation_id }, session);
    t.equal(reply.status, 200);
    const expected = {
      ...reservation,
      payment_history: [...reservation.payment_history, ...reservation.payment_history.map(({ payment_id, amount }) => ({ payment_id, amount: -amount }))],
      status: 'cancelled',
    };
    t.strictSame(reply.body, expected);
    const state = (await server.state(session)).airline;
    t.strictSame(state.reservations[reservation.reservation_id], expected, 'the change sticks in the session');
    t.strictSame(state.users[reservation.user_id], userOf(reservation), 'gift cards are not credited back at once (tau2-bench)');
    t.strictSame(keys(await diff(session)), [`reservations/${reservation.reservation_id}`], 'seats are not released (tau2-bench)');
    t.equal((await server.state(await server.newSession())).airline.reservations[reservation.reservation_id].status, null, 'other sessions do not see it');
  });

  t.test('checks no eligibility rule: an old basic-economy reservation with a flown segment is cancelled too', async (t) => {
    const reservation = findReservation(
      (r) =>
        r.status !== 'cancelled' &&
        r.cabin === 'basic_economy' &&
        r.insurance === 'no' &&
        r.created_at < '2024-05-01' &&
        r.flights.some((f) => instanceOf(f.flight_number, f.date)?.status === 'landed'),
    );
    const reply = await server.call('airline', 'cancel_reservation', { reservation_id: reservation.reservation_id }, await server.newSession());
    t.equal(reply.status, 200);
    t.equal(reply.body.status, 'cancelled');
  });

  t.test('a lower-case id names the stored reservation', async (t) => {
    const reservation = findReservation((r) => r.status !== 'cancelled');
    const reply = await server.call('airline', 'cancel_reservation', { reservation_id: reservation.reservation_id.toLowerCase() }, await server.newSession());
    t.equal(reply.status, 200);
    t.equal(reply.body.reservation_id, reservation.reservation_id);
  });

  t.test('a cancelled reservation cannot be cancelled again; an unknown one is not found; nothing changes', async (t) => {
    const session = await server.newSession();
    const cancelled = findReservation((r) => r.status === 'cancelled');
    const active = findReservation((r) => r.status !== 'cancelled');
    await server.call('airline', 'cancel_reservation', { reservation_id: active.reservation_id }, session);
    const after = (await server.state(session)).airline.reservations[active.reservation_id];
    const cases = [
      { args: { reservation_id: cancelled.reservation_id }, status: 409, detail: `Reservation ${cancelled.reservation_id} is already cancelled` },
      {
        args: { reservation_id: active.reservation_id },
        status: 409,
        detail: `Reservation ${active.reservation_id} is already cancelled`,
        why: 'cancelled in this session',
      },
      { args: { reservation_id: 'ZZZZZZ' }, status: 404, detail: 'Reservation ZZZZZZ not found' },
    ];
    await expectRejections(t, server, 'airline', 'cancel_reservation', cases, session);
    t.strictSame((await server.state(session)).airline.reservations[active.reservation_id], after, 'the refunds are not reversed');
    t.strictSame(keys(await diff(session)), [`reservations/${active.reservation_id}`]);
  });

  t.test('invalid arguments answer 400 naming the field, and change nothing', async (t) => {
    const session = await server.newSession();
    const cases = [
      { args: {}, field: 'reservation_id' },
      { args: { reservation_id: 42 }, field: 'reservation_id' },
      { args: { reservation_id: 'ZZZZZZ', reason: 'change of plan' }, field: 'reason' },
    ];
    for (const { args, field } of cases) {
      const reply = await server.call('airline', 'cancel_reservation', args, session);
      t.equal(reply.status, 400, JSON.stringify(args));
      t.strictSame(
        reply.body.errors.map((e: { field: string }) => e.field),
        [field],
      );
    }
    t.same(await diff(session), [], 'no record changed');
  });
});
