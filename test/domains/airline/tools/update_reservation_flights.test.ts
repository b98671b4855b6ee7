import t from 'tap';
import type { Cabin, Reservation } from '../../../../domains/airline/schema.js';
import { expectRejections, startServer } from '../../../helpers/server.js';
import {
  type Available,
  airlineFixture,
  findFlightDate,
  findReservation,
  findUser,
  instanceOf,
  isAvailable,
  methodsOf,
  patchedAirlineBases,
  userOf,
} from '../../../helpers/airline.js';

type Segment = Reservation['flights'][number];
const segment = (s: { flight_number: string; date: string }) => ({ flight_number: s.flight_number, date: s.date });
const availableFor = (s: { flight_number: string; date: string }, cabin: Cabin, seats: number): Available | undefined => {
  const instance = instanceOf(s.flight_number, s.date);
  return isAvailable(instance) && instance.available_seats[cabin] >= seats ? instance : undefined;
};

/** Another flight of the same route, bookable for `seats` in `cabin` (same date first, else any date). */
function alternativeTo(s: Segment, cabin: Cabin, seats: number): Segment | undefined {
  for (const flight of Object.values(airlineFixture().flights)) {
    if (flight.flight_number === s.flight_number || flight.origin !== s.origin || flight.destination !== s.destination) continue;
    for (const date of Object.keys(flight.dates)) {
      const instance = availableFor({ flight_number: flight.flight_number, date }, cabin, seats);
      if (instance) return { origin: flight.origin, destination: flight.destination, flight_number: flight.flight_number, date, price: instance.prices[cabin] };
    }
  }
  return undefined;
}

t.test('update_reservation_flights', async (t) => {
  const server = await startServer(t);
  const diff = async (session: string) => (await server.request('GET', `/sessions/${session}/diff`)).body.airline;
  const keys = (changes: { table: string; id: string }[]) => changes.map((c) => `${c.table}/${c.id}`).sort();
  const active = (r: Reservation) => r.status !== 'cancelled';

  t.test('one segment replaced: it costs its current price, the kept one keeps the price paid; the difference is charged', async (t) => {
    // The kept segment's current price is moved away from the price paid: it must not be repriced.
    const reservation = findReservation((r, u) => {
      const [first, second] = r.flights;
      if (!active(r) || r.cabin !== 'economy' || !first || !second || methodsOf(u, 'credit_card').length === 0) return false;
      return availableFor(second, r.cabin, 0) !== undefined && alternativeTo(first, r.cabin, r.passengers.length) !== undefined;
    });
    const [first, second] = reservation.flights as [Segment, Segment];
    const replacement = alternativeTo(first, 'economy', reservation.passengers.length)!;
    const creditCard = methodsOf(userOf(reservation), 'credit_card')[0]!;
    const difference = (replacement.price - first.price) * reservation.passengers.length;
    const bases = await patchedAirlineBases((db) => {
      const instance = db.flights[second.flight_number]!.dates[second.date]!;
      if (instance.status === 'available') instance.prices.economy = second.price + 37;
    });
    const patched = await startServer(t, { bases });
    const session = await patched.newSession();

    const reply = await patched.call(
      'airline',
      'update_reservation_flights',
      {
        reservation_id: reservation.reservation_id,
        cabin: 'economy',
        flights: [segment(replacement), segment(second)],
        payment_id: creditCard.id,
      },
      session,
    );
    t.equal(reply.status, 200, reply.text);
    const expected = {
      ...reservation,
      flights: [replacement, second],
      payment_history: [...reservation.payment_history, ...(difference === 0 ? [] : [{ payment_id: creditCard.id, amount: difference }])],
    };
    t.strictSame(reply.body, expected);
    t.equal(reply.body.flights[1].price, second.price, 'the kept segment keeps the price paid, not the current one');
    t.strictSame((await patched.state(session)).airline.reservations[reservation.reservation_id], expected);
    const changes = (await patched.request('GET', `/sessions/${session}/diff`)).body.airline;
    t.strictSame(keys(changes), [`reservations/${reservation.reservation_id}`], 'seats are not changed (tau2-bench), the user neither');
    t.strictSame(
      (await patched.state(await patched.newSession())).airline.reservations[reservation.reservation_id],
      reservation,
      'other sessions do not see it',
    );
  });

  t.test('a cabin change reprices every segment at its current price in the new cabin, even unchanged ones', async (t) => {
    const reservation = findReservation(
      (r, u) =>
        active(r) &&
        r.cabin === 'economy' &&
        methodsOf(u, 'credit_card').length > 0 &&
        r.flights.every((s) => availableFor(s, 'business', r.passengers.length)),
    );
    const creditCard = methodsOf(userOf(reservation), 'credit_card')[0]!;
    const flights = reservation.flights.map((s) => ({ ...s, price: availableFor(s, 'business', 0)!.prices.business }));
    const difference =
      (flights.reduce((sum, s) => sum + s.price, 0) - reservation.flights.reduce((sum, s) => sum + s.price, 0)) * reservation.passengers.length;
    const session = await server.newSession();
    const reply = await server.call(
      'airline',
      'update_reservation_flights',
      { reservation_id: reservation.reservation_id, cabin: 'business', flights: reservation.flights.map(segment), payment_id: creditCard.id },
      session,
    );
    t.equal(reply.status, 200, reply.text);
    t.strictSame(reply.body, {
      ...reservation,
      cabin: 'business',
      flights,
      payment_history: [...reservation.payment_history, { payment_id: creditCard.id, amount: difference }],
    });
    t.ok(difference > 0, 'business costs more');
  });

  t.test('a cheaper cabin is a refund: a negative entry, and a gift card is credited at once', async (t) => {
    const reservation = findReservation(
      (r, u) =>
        active(r) && r.cabin === 'business' && methodsOf(u, 'gift_card').length > 0 && r.flights.every((s) => availableFor(s, 'economy', r.passengers.length)),
    );
    const user = userOf(reservation);
    const giftCard = methodsOf(user, 'gift_card')[0]!;
    const flights = reservation.flights.map((s) => ({ ...s, price: availableFor(s, 'economy', 0)!.prices.economy }));
    const difference =
      (flights.reduce((sum, s) => sum + s.price, 0) - reservation.flights.reduce((sum, s) => sum + s.price, 0)) * reservation.passengers.length;
    t.ok(difference < 0, 'economy costs less');
    const session = await server.newSession();
    const reply = await server.call(
      'airline',
      'update_reservation_flights',
      { reservation_id: reservation.reservation_id, cabin: 'economy', flights: reservation.flights.map(segment), payment_id: giftCard.id },
      session,
    );
    t.equal(reply.status, 200, reply.text);
    t.strictSame(reply.body.payment_history.at(-1), { payment_id: giftCard.id, amount: difference });
    t.equal(reply.body.cabin, 'economy');
    const state = (await server.state(session)).airline;
    t.equal(state.users[user.user_id].payment_methods[giftCard.id].amount, giftCard.amount - difference, 'the gift card receives the refund');
  });

  t.test('the same itinerary and cabin: nothing to pay, no entry; kept segments are not re-checked, even flown ones', async (t) => {
    const reservation = findReservation(
      (r, u) => active(r) && r.flights.some((s) => instanceOf(s.flight_number, s.date)?.status === 'landed') && methodsOf(u, 'credit_card').length > 0,
    );
    const creditCard = methodsOf(userOf(reservation), 'credit_card')[0]!;
    const session = await server.newSession();
    const reply = await server.call(
      'airline',
      'update_reservation_flights',
      { reservation_id: reservation.reservation_id, cabin: reservation.cabin, flights: reservation.flights.map(segment), payment_id: creditCard.id },
      session,
    );
    t.equal(reply.status, 200, reply.text);
    t.strictSame(reply.body, reservation);
  });

  t.test('no rule of the policy is checked: a basic-economy reservation changes flights', async (t) => {
    const reservation = findReservation(
      (r, u) =>
        active(r) &&
        r.cabin === 'basic_economy' &&
        methodsOf(u, 'credit_card').length > 0 &&
        alternativeTo(r.flights[0]!, 'basic_economy', r.passengers.length) !== undefined,
    );
    const replacement = alternativeTo(reservation.flights[0]!, 'basic_economy', reservation.passengers.length)!;
    const reply = await server.call(
      'airline',
      'update_reservation_flights',
      {
        reservation_id: reservation.reservation_id,
        cabin: 'basic_economy',
        flights: [segment(replacement), ...reservation.flights.slice(1).map(segment)],
        payment_id: methodsOf(userOf(reservation), 'credit_card')[0]!.id,
      },
      await server.newSession(),
    );
    t.equal(reply.status, 200, reply.text);
    t.equal(reply.body.flights[0].flight_number, replacement.flight_number);
  });

  t.test("rules in tau2-bench's order, exact messages; nothing changes on error", async (t) => {
    const reservation = findReservation(
      (r, u) =>
        active(r) &&
        r.cabin === 'economy' &&
        r.passengers.length >= 2 &&
        methodsOf(u, 'credit_card').length > 0 &&
        methodsOf(u, 'certificate').length > 0 &&
        alternativeTo(r.flights[0]!, 'economy', r.passengers.length) !== undefined,
    );
    const user = userOf(reservation);
    const creditCard = methodsOf(user, 'credit_card')[0]!;
    const certificate = methodsOf(user, 'certificate')[0]!;
    const stranger = findUser((u) => u.user_id !== user.user_id && methodsOf(u, 'credit_card').length > 0);
    const other = alternativeTo(reservation.flights[0]!, 'economy', reservation.passengers.length)!;
    const landed = findFlightDate(({ instance }) => instance.status === 'landed');
    const full = findFlightDate(({ instance }) => isAvailable(instance) && instance.available_seats.economy < reservation.passengers.length);
    const rest = reservation.flights.slice(1).map(segment);
    const call = (flights: { flight_number: string; date: string }[], payment_id = creditCard.id) => ({
      reservation_id: reservation.reservation_id,
      cabin: 'economy',
      flights,
      payment_id,
    });
    const cases = [
      { args: { ...call(reservation.flights.map(segment)), reservation_id: 'ZZZZZZ' }, status: 404, detail: 'Reservation ZZZZZZ not found' },
      { args: call([{ flight_number: 'XYZ999', date: '2024-05-20' }, ...rest]), status: 404, detail: 'Flight XYZ999 not found' },
      {
        args: call([{ flight_number: other.flight_number, date: '2024-07-01' }, ...rest]),
        status: 404,
        detail: `Flight ${other.flight_number} not found on date 2024-07-01`,
      },
      {
        args: call([segment({ flight_number: landed.flight.flight_number, date: landed.date }), ...rest]),
        status: 409,
        detail: `Flight ${landed.flight.flight_number} not available on date ${landed.date}`,
      },
      {
        args: call([segment({ flight_number: full.flight.flight_number, date: full.date }), ...rest]),
        status: 409,
        detail: `Not enough seats on flight ${full.flight.flight_number}`,
      },
      {
        args: call([segment({ flight_number: landed.flight.flight_number, date: landed.date }), ...rest], 'credit_card_0000000'),
        status: 409,
        detail: `Flight ${landed.flight.flight_number} not available on date ${landed.date}`,
        why: 'flights are checked before the payment',
      },
      { args: call([segment(other), ...rest], 'credit_card_0000000'), status: 404, detail: 'Payment method not found' },
      {
        args: call([segment(other), ...rest], methodsOf(stranger, 'credit_card')[0]!.id),
        status: 404,
        detail: 'Payment method not found',
        why: "another user's card",
      },
      {
        args: call(reservation.flights.map(segment), certificate.id),
        status: 422,
        detail: 'Certificate cannot be used to update reservation',
        why: 'even when nothing is due',
      },
    ];
    const session = await server.newSession();
    await expectRejections(t, server, 'airline', 'update_reservation_flights', cases, session);
    t.same(await diff(session), [], 'no record changed');
  });

  t.test('a gift card that cannot cover the difference is refused', async (t) => {
    // Upgrade a whole economy reservation to business, paid by the user's smallest gift card.
    const reservation = findReservation((r, u) => {
      if (!active(r) || r.cabin !== 'economy' || !r.flights.every((s) => availableFor(s, 'business', r.passengers.length))) return false;
      const difference = r.flights.reduce((sum, s) => sum + availableFor(s, 'business', 0)!.prices.business - s.price, 0) * r.passengers.length;
      return methodsOf(u, 'gift_card').some((g) => g.amount < difference);
    });
    const user = userOf(reservation);
    const difference =
      reservation.flights.reduce((sum, s) => sum + availableFor(s, 'business', 0)!.prices.business - s.price, 0) * reservation.passengers.length;
    const poor = methodsOf(user, 'gift_card').find((g) => g.amount < difference)!;
    const session = await server.newSession();
    await expectRejections(
      t,
      server,
      'airline',
      'update_reservation_flights',
      [
        {
          args: { reservation_id: reservation.reservation_id, cabin: 'business', flights: reservation.flights.map(segment), payment_id: poor.id },
          status: 422,
          detail: 'Gift card balance is not enough',
        },
      ],
      session,
    );
    t.same(await diff(session), [], 'no record changed');
  });

  t.test('invalid arguments answer 400 naming the field, and change nothing', async (t) => {
    const reservation = findReservation((r) => active(r));
    const session = await server.newSession();
    const valid = {
      reservation_id: reservation.reservation_id,
      cabin: reservation.cabin,
      flights: reservation.flights.map(segment),
      payment_id: 'credit_card_0000000',
    };
    const { cabin: _omitted, ...withoutCabin } = valid;
    const cases = [
      { args: withoutCabin, field: 'cabin' },
      { args: { ...valid, cabin: 'premium' }, field: 'cabin' },
      { args: { ...valid, flights: [] }, field: 'flights' },
      { args: { ...valid, flights: [{ flight_number: 'HAT001' }] }, field: 'flights.0.date' },
      { args: { ...valid, flights: [{ flight_number: 'HAT001', date: '2024-05-20', price: 100 }] }, field: 'flights.0.price' },
      { args: { ...valid, payment_id: 3 }, field: 'payment_id' },
      { args: { ...valid, passengers: [] }, field: 'passengers' },
    ];
    for (const { args, field } of cases) {
      const reply = await server.call('airline', 'update_reservation_flights', args, session);
      t.equal(reply.status, 400, field);
      t.strictSame(
        reply.body.errors.map((e: { field: string }) => e.field),
        [field],
      );
    }
    t.same(await diff(session), [], 'no record changed');
  });
});
