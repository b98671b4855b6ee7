import t from 'tap';
import { expectRejections, startServer } from '../../../helpers/server.js';
import { findReservation, findUser, methodsOf, userOf } from '../../../helpers/airline.js';

t.test('update_reservation_baggages', async (t) => {
  const server = await startServer(t);
  const diff = async (session: string) => (await server.request('GET', `/sessions/${session}/diff`)).body.airline;
  const keys = (changes: { table: string; id: string }[]) => changes.map((c) => `${c.table}/${c.id}`).sort();
  const reservation = findReservation(
    (r, u) =>
      r.status !== 'cancelled' &&
      r.nonfree_baggages >= 1 &&
      methodsOf(u, 'credit_card').length > 0 &&
      methodsOf(u, 'gift_card').some((g) => g.amount >= 100) &&
      methodsOf(u, 'certificate').length > 0,
  );
  const user = userOf(reservation);
  const creditCard = methodsOf(user, 'credit_card')[0]!;
  const giftCard = methodsOf(user, 'gift_card').find((g) => g.amount >= 100)!;
  const certificate = methodsOf(user, 'certificate')[0]!;
  const args = (total: number, nonfree: number, payment_id: string) => ({
    reservation_id: reservation.reservation_id,
    total_baggages: total,
    nonfree_baggages: nonfree,
    payment_id,
  });

  t.test('two more non-free bags: 100 charged to a credit card, one entry, counts set', async (t) => {
    const session = await server.newSession();
    const reply = await server.call(
      'airline',
      'update_reservation_baggages',
      args(reservation.total_baggages + 2, reservation.nonfree_baggages + 2, creditCard.id),
      session,
    );
    t.equal(reply.status, 200);
    const expected = {
      ...reservation,
      total_baggages: reservation.total_baggages + 2,
      nonfree_baggages: reservation.nonfree_baggages + 2,
      payment_history: [...reservation.payment_history, { payment_id: creditCard.id, amount: 100 }],
    };
    t.strictSame(reply.body, expected);
    t.strictSame((await server.state(session)).airline.reservations[reservation.reservation_id], expected);
    t.strictSame(keys(await diff(session)), [`reservations/${reservation.reservation_id}`], 'a credit card has no balance: the user is unchanged');
    t.strictSame((await server.state(await server.newSession())).airline.reservations[reservation.reservation_id], reservation, 'other sessions do not see it');
  });

  t.test('a gift card pays: its amount goes down by the charge', async (t) => {
    const session = await server.newSession();
    const reply = await server.call(
      'airline',
      'update_reservation_baggages',
      args(reservation.total_baggages + 2, reservation.nonfree_baggages + 2, giftCard.id),
      session,
    );
    t.equal(reply.status, 200);
    t.strictSame(reply.body.payment_history.at(-1), { payment_id: giftCard.id, amount: 100 });
    const state = (await server.state(session)).airline;
    t.strictSame(state.users[user.user_id], {
      ...user,
      payment_methods: { ...user.payment_methods, [giftCard.id]: { ...giftCard, amount: giftCard.amount - 100 } },
    });
  });

  t.test('no new non-free bag: nothing to pay, no entry; fewer bags are set without a refund (tau2-bench)', async (t) => {
    const session = await server.newSession();
    const free = await server.call(
      'airline',
      'update_reservation_baggages',
      args(reservation.total_baggages + 1, reservation.nonfree_baggages, giftCard.id),
      session,
    );
    t.equal(free.status, 200);
    t.strictSame(free.body.payment_history, reservation.payment_history);
    t.equal(free.body.total_baggages, reservation.total_baggages + 1);
    const fewer = await server.call('airline', 'update_reservation_baggages', args(0, 0, creditCard.id), session);
    t.equal(fewer.status, 200);
    t.strictSame(fewer.body, { ...reservation, total_baggages: 0, nonfree_baggages: 0 });
    t.strictSame(keys(await diff(session)), [`reservations/${reservation.reservation_id}`], 'the gift card is untouched');
  });

  t.test("rules in tau2-bench's order, exact messages; nothing changes on error", async (t) => {
    const session = await server.newSession();
    const stranger = findUser((u) => u.user_id !== user.user_id && methodsOf(u, 'credit_card').length > 0);
    const tooMuch = Math.floor(giftCard.amount / 50) + 1;
    const more = (n: number, payment_id: string) => args(reservation.total_baggages + n, reservation.nonfree_baggages + n, payment_id);
    const cases = [
      { args: { ...more(1, creditCard.id), reservation_id: 'ZZZZZZ' }, status: 404, detail: 'Reservation ZZZZZZ not found' },
      { args: more(1, 'credit_card_0000000'), status: 404, detail: 'Payment method not found' },
      { args: more(1, methodsOf(stranger, 'credit_card')[0]!.id), status: 404, detail: 'Payment method not found', why: "another user's card" },
      { args: more(1, certificate.id), status: 422, detail: 'Certificate cannot be used to update reservation' },
      { args: more(0, certificate.id), status: 422, detail: 'Certificate cannot be used to update reservation', why: 'checked even when nothing is due' },
      { args: more(0, 'credit_card_0000000'), status: 404, detail: 'Payment method not found', why: 'checked even when nothing is due' },
      { args: more(tooMuch, giftCard.id), status: 422, detail: 'Gift card balance is not enough' },
    ];
    await expectRejections(t, server, 'airline', 'update_reservation_baggages', cases, session);
    t.same(await diff(session), [], 'no record changed');
  });

  t.test('invalid arguments answer 400 naming the field, and change nothing', async (t) => {
    const session = await server.newSession();
    const valid = args(3, 1, creditCard.id);
    const { payment_id: _omitted, ...withoutPayment } = valid;
    const cases = [
      { args: withoutPayment, field: 'payment_id' },
      { args: { ...valid, total_baggages: -1 }, field: 'total_baggages' },
      { args: { ...valid, nonfree_baggages: 1.5 }, field: 'nonfree_baggages' },
      { args: { ...valid, total_baggages: '3' }, field: 'total_baggages' },
      { args: { ...valid, amount: 50 }, field: 'amount' },
    ];
    for (const { args, field } of cases) {
      const reply = await server.call('airline', 'update_reservation_baggages', args, session);
      t.equal(reply.status, 400, field);
      t.strictSame(
        reply.body.errors.map((e: { field: string }) => e.field),
        [field],
      );
    }
    t.same(await diff(session), [], 'no record changed');
  });
});
