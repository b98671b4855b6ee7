import t from 'tap';
import type { Cabin, Reservation, User } from '../../../../domains/airline/schema.js';
import { expectRejections, startServer } from '../../../helpers/server.js';
import { airlineFixture, type Available, findFlightDate, findUser, isAvailable, methodsOf } from '../../../helpers/airline.js';

const passengers = [
  { first_name: 'Noor', last_name: 'Haddad', dob: '1984-03-09' },
  { first_name: 'Elias', last_name: 'Haddad', dob: '2012-11-30' },
];

t.test('book_reservation', async (t) => {
  const server = await startServer(t);
  const diff = async (session: string) => (await server.request('GET', `/sessions/${session}/diff`)).body.airline;

  // A user with a gift card, a certificate and a credit card; an available flight with room for two in economy.
  const user = findUser((u) => methodsOf(u, 'gift_card').length > 0 && methodsOf(u, 'certificate').length > 0 && methodsOf(u, 'credit_card').length > 0);
  const giftCard = methodsOf(user, 'gift_card')[0]!;
  const certificate = methodsOf(user, 'certificate')[0]!;
  const creditCard = methodsOf(user, 'credit_card')[0]!;
  const outbound = findFlightDate(({ instance }) => isAvailable(instance) && instance.available_seats.economy >= 2);
  const back = findFlightDate(
    ({ flight, date, instance }) =>
      isAvailable(instance) &&
      instance.available_seats.economy >= 2 &&
      flight.origin === outbound.flight.destination &&
      flight.destination === outbound.flight.origin &&
      date > outbound.date,
  );
  const price = (found: { instance: unknown }, cabin: Cabin) => (found.instance as Available).prices[cabin];

  const oneWay = (overrides: Record<string, unknown> = {}) => ({
    user_id: user.user_id,
    origin: outbound.flight.origin,
    destination: outbound.flight.destination,
    flight_type: 'one_way',
    cabin: 'economy',
    flights: [{ flight_number: outbound.flight.flight_number, date: outbound.date }],
    passengers,
    payment_methods: [{ payment_id: creditCard.id, amount: price(outbound, 'economy') * 2 }],
    total_baggages: 0,
    nonfree_baggages: 0,
    insurance: 'no',
    ...overrides,
  });

  t.test('books a round trip paid by certificate, gift card and credit card; every effect lands in the session only', async (t) => {
    const session = await server.newSession();
    const total = (price(outbound, 'economy') + price(back, 'economy')) * 2 + 30 * 2 + 50 * 1;
    const byCertificate = Math.min(certificate.amount, total);
    const byGiftCard = Math.min(giftCard.amount, total - byCertificate);
    const byCard = total - byCertificate - byGiftCard;
    const payment_methods = [
      { payment_id: certificate.id, amount: byCertificate },
      { payment_id: giftCard.id, amount: byGiftCard },
      { payment_id: creditCard.id, amount: byCard },
    ];
    const args = {
      ...oneWay(),
      flight_type: 'round_trip',
      flights: [
        { flight_number: outbound.flight.flight_number, date: outbound.date },
        { flight_number: back.flight.flight_number, date: back.date },
      ],
      payment_methods,
      total_baggages: 3,
      nonfree_baggages: 1,
      insurance: 'yes',
    };
    const reply = await server.call('airline', 'book_reservation', args, session);
    t.equal(reply.status, 200, reply.text);
    const expected: Reservation = {
      reservation_id: 'HATHAT',
      user_id: user.user_id,
      origin: outbound.flight.origin,
      destination: outbound.flight.destination,
      flight_type: 'round_trip',
      cabin: 'economy',
      flights: [
        {
          origin: outbound.flight.origin,
          destination: outbound.flight.destination,
          flight_number: outbound.flight.flight_number,
          date: outbound.date,
          price: price(outbound, 'economy'),
        },
        {
          origin: back.flight.origin,
          destination: back.flight.destination,
          flight_number: back.flight.flight_number,
          date: back.date,
          price: price(back, 'economy'),
        },
      ],
      passengers,
      payment_history: payment_methods,
      created_at: '2024-05-15T15:00:00',
      total_baggages: 3,
      nonfree_baggages: 1,
      insurance: 'yes',
      status: null,
    };
    t.strictSame(reply.body, expected);

    const state = (await server.state(session)).airline;
    t.strictSame(state.reservations.HATHAT, expected, 'the reservation is stored');
    const { [certificate.id]: _used, ...otherMethods } = user.payment_methods;
    t.strictSame(
      state.users[user.user_id],
      {
        ...user,
        payment_methods: { ...otherMethods, [giftCard.id]: { ...giftCard, amount: giftCard.amount - byGiftCard } },
        reservations: [...user.reservations, 'HATHAT'],
      },
      'the certificate is removed, the gift card reduced, the reservation listed',
    );
    for (const leg of [outbound, back]) {
      const seats = (leg.instance as Available).available_seats;
      t.strictSame(
        state.flights[leg.flight.flight_number].dates[leg.date].available_seats,
        { ...seats, economy: seats.economy - 2 },
        `two economy seats taken on ${leg.flight.flight_number}`,
      );
    }
    t.strictSame(
      (await diff(session))
        .map((c: { table: string; id: string }) => `${c.table}/${c.id}`)
        .filter((key: string) => !key.startsWith('seat_maps/'))
        .sort(),
      [`flights/${back.flight.flight_number}`, `flights/${outbound.flight.flight_number}`, 'reservations/HATHAT', `users/${user.user_id}`].sort(),
    );

    const search = await server.call(
      'airline',
      'search_direct_flight',
      { origin: outbound.flight.origin, destination: outbound.flight.destination, date: outbound.date },
      session,
    );
    const listed = search.body.find((f: { flight_number: string }) => f.flight_number === outbound.flight.flight_number);
    t.equal(listed.available_seats.economy, (outbound.instance as Available).available_seats.economy - 2, 'the search sees the seats taken');

    const other = (await server.state(await server.newSession())).airline;
    t.notOk(other.reservations.HATHAT, 'other sessions do not see the reservation');
    t.strictSame(other.users[user.user_id], user, 'nor the payment changes');
  });

  t.test('ids HATHAT, HATHAU, HATHAV in turn, then "Too many reservations" (checked before the flights)', async (t) => {
    const session = await server.newSession();
    for (const id of ['HATHAT', 'HATHAU', 'HATHAV']) {
      const reply = await server.call(
        'airline',
        'book_reservation',
        oneWay({ passengers: passengers.slice(0, 1), payment_methods: [{ payment_id: creditCard.id, amount: price(outbound, 'economy') }] }),
        session,
      );
      t.equal(reply.status, 200, reply.text);
      t.equal(reply.body.reservation_id, id);
    }
    const state = (await server.state(session)).airline;
    t.strictSame(state.users[user.user_id].reservations, [...user.reservations, 'HATHAT', 'HATHAU', 'HATHAV']);
    const seats = (outbound.instance as Available).available_seats.economy;
    t.equal(state.flights[outbound.flight.flight_number].dates[outbound.date].available_seats.economy, seats - 3);
    await expectRejections(
      t,
      server,
      'airline',
      'book_reservation',
      [
        { args: oneWay(), status: 409, detail: 'Too many reservations' },
        {
          args: oneWay({ flights: [{ flight_number: 'XYZ999', date: outbound.date }] }),
          status: 409,
          detail: 'Too many reservations',
          why: 'before the flights',
        },
      ],
      session,
    );
  });

  t.test('the price: cabin price × passengers + 30 × passengers with insurance + 50 × non-free bags', async (t) => {
    const session = await server.newSession();
    const cabin = 'business';
    const found = findFlightDate(({ instance }) => isAvailable(instance) && instance.available_seats.business >= 2);
    const total = price(found, cabin) * 2 + 60 + 150;
    const args = oneWay({
      origin: found.flight.origin,
      destination: found.flight.destination,
      cabin,
      flights: [{ flight_number: found.flight.flight_number, date: found.date }],
      insurance: 'yes',
      total_baggages: 5,
      nonfree_baggages: 3,
    });
    const short = await server.call('airline', 'book_reservation', { ...args, payment_methods: [{ payment_id: creditCard.id, amount: total - 1 }] }, session);
    t.equal(short.status, 422);
    t.equal(short.body.detail, `Payment amount does not add up, total price is ${total}, but paid ${total - 1}`);
    const reply = await server.call('airline', 'book_reservation', { ...args, payment_methods: [{ payment_id: creditCard.id, amount: total }] }, session);
    t.equal(reply.status, 200, reply.text);
    t.equal(reply.body.flights[0].price, price(found, cabin), 'the segment records the price per passenger');
    const seats = (found.instance as Available).available_seats;
    t.strictSame(
      (await server.state(session)).airline.flights[found.flight.flight_number].dates[found.date].available_seats,
      { ...seats, business: seats.business - 2 },
      'seats taken in the booked cabin only',
    );
  });

  t.test('a gift card listed twice must cover the sum of its amounts', async (t) => {
    const session = await server.newSession();
    const total = price(outbound, 'economy') * 2;
    const half = Math.floor(giftCard.amount / 2) + 1;
    const cases = [
      {
        args: oneWay({
          payment_methods: [
            { payment_id: giftCard.id, amount: half },
            { payment_id: giftCard.id, amount: half },
            { payment_id: creditCard.id, amount: total - 2 * half },
          ],
        }),
        status: 422,
        detail: `Not enough balance in payment method ${giftCard.id}`,
      },
    ];
    await expectRejections(t, server, 'airline', 'book_reservation', cases, session);
    t.same(await diff(session), [], 'no record changed');
  });

  t.test("rules in tau2-bench's order, exact messages; nothing changes on error", async (t) => {
    const session = await server.newSession();
    const landed = findFlightDate(({ instance }) => instance.status === 'landed');
    const full = findFlightDate(({ instance }) => isAvailable(instance) && instance.available_seats.economy < 2);
    const stranger = findUser((u) => u.user_id !== user.user_id && methodsOf(u, 'credit_card').length > 0);
    const strangerCard = methodsOf(stranger, 'credit_card')[0]!;
    const total = price(outbound, 'economy') * 2;
    const flight = (f: { flight: { flight_number: string }; date: string }) => [{ flight_number: f.flight.flight_number, date: f.date }];
    const cases = [
      { args: oneWay({ user_id: 'nobody_000' }), status: 404, detail: 'User nobody_000 not found' },
      { args: oneWay({ flights: [{ flight_number: 'XYZ999', date: outbound.date }] }), status: 404, detail: 'Flight XYZ999 not found' },
      {
        args: oneWay({ flights: [{ flight_number: outbound.flight.flight_number, date: '2024-06-30' }] }),
        status: 404,
        detail: `Flight ${outbound.flight.flight_number} not found on date 2024-06-30`,
      },
      { args: oneWay({ flights: flight(landed) }), status: 409, detail: `Flight ${landed.flight.flight_number} not available on date ${landed.date}` },
      { args: oneWay({ flights: flight(full) }), status: 409, detail: `Not enough seats on flight ${full.flight.flight_number}` },
      {
        args: oneWay({ flights: [...flight(outbound), ...flight(landed)], payment_methods: [{ payment_id: 'credit_card_0000000', amount: 1 }] }),
        status: 409,
        detail: `Flight ${landed.flight.flight_number} not available on date ${landed.date}`,
        why: 'flights are checked before payments',
      },
      {
        args: oneWay({ payment_methods: [{ payment_id: strangerCard.id, amount: total }] }),
        status: 404,
        detail: `Payment method ${strangerCard.id} not found`,
        why: "another user's card",
      },
      {
        args: oneWay({
          payment_methods: [
            { payment_id: giftCard.id, amount: giftCard.amount + 1 },
            { payment_id: creditCard.id, amount: total - giftCard.amount - 1 },
          ],
        }),
        status: 422,
        detail: `Not enough balance in payment method ${giftCard.id}`,
      },
      {
        args: oneWay({
          payment_methods: [
            { payment_id: certificate.id, amount: certificate.amount + 1 },
            { payment_id: creditCard.id, amount: total - certificate.amount - 1 },
          ],
        }),
        status: 422,
        detail: `Not enough balance in payment method ${certificate.id}`,
      },
      {
        args: oneWay({
          payment_methods: [
            { payment_id: giftCard.id, amount: giftCard.amount + 1 },
            { payment_id: 'gift_card_0000000', amount: 0 },
          ],
        }),
        status: 422,
        detail: `Not enough balance in payment method ${giftCard.id}`,
        why: 'payments are checked in order',
      },
      {
        args: oneWay({
          payment_methods: [
            { payment_id: giftCard.id, amount: 1 },
            { payment_id: 'gift_card_0000000', amount: 0 },
          ],
        }),
        status: 404,
        detail: 'Payment method gift_card_0000000 not found',
      },
      {
        args: oneWay({ payment_methods: [{ payment_id: creditCard.id, amount: total + 30 }] }),
        status: 422,
        detail: `Payment amount does not add up, total price is ${total}, but paid ${total + 30}`,
      },
      { args: oneWay({ payment_methods: [] }), status: 422, detail: `Payment amount does not add up, total price is ${total}, but paid 0` },
    ];
    await expectRejections(t, server, 'airline', 'book_reservation', cases, session);
    t.same(await diff(session), [], 'no record changed');
  });

  t.test('invalid arguments answer 400 naming the field, and change nothing', async (t) => {
    const session = await server.newSession();
    const valid = oneWay();
    const { insurance: _omitted, ...withoutInsurance } = valid;
    const cases = [
      { args: withoutInsurance, field: 'insurance' },
      { args: { ...valid, insurance: true }, field: 'insurance' },
      { args: { ...valid, flight_type: 'multi_city' }, field: 'flight_type' },
      { args: { ...valid, cabin: 'first' }, field: 'cabin' },
      { args: { ...valid, flights: [] }, field: 'flights' },
      { args: { ...valid, flights: [{ flight_number: outbound.flight.flight_number, date: '05/20/2024' }] }, field: 'flights.0.date' },
      { args: { ...valid, passengers: [] }, field: 'passengers' },
      { args: { ...valid, passengers: [{ first_name: 'Noor', last_name: 'Haddad' }] }, field: 'passengers.0.dob' },
      { args: { ...valid, payment_methods: [{ payment_id: creditCard.id, amount: 10.5 }] }, field: 'payment_methods.0.amount' },
      { args: { ...valid, payment_methods: [{ payment_id: creditCard.id, amount: -5 }] }, field: 'payment_methods.0.amount' },
      { args: { ...valid, total_baggages: -1 }, field: 'total_baggages' },
      { args: { ...valid, nonfree_baggages: '1' }, field: 'nonfree_baggages' },
      { args: { ...valid, seat: '12A' }, field: 'seat' },
    ];
    for (const { args, field } of cases) {
      const reply = await server.call('airline', 'book_reservation', args, session);
      t.equal(reply.status, 400, field);
      t.strictSame(
        reply.body.errors.map((e: { field: string }) => e.field),
        [field],
      );
    }
    t.same(await diff(session), [], 'no record changed');
  });
});

t.test('a tau2-style flow: book with a gift card and a certificate → change flights → add bags → cancel', async (t) => {
  const server = await startServer(t);
  const db = airlineFixture();
  const user: User = findUser(
    (u) => methodsOf(u, 'gift_card').some((g) => g.amount >= 100) && methodsOf(u, 'certificate').length > 0 && methodsOf(u, 'credit_card').length > 0,
  );
  const giftCard = methodsOf(user, 'gift_card').find((g) => g.amount >= 100)!;
  const certificate = methodsOf(user, 'certificate')[0]!;
  const creditCard = methodsOf(user, 'credit_card')[0]!;
  // Two available flights of the same route and date with different economy prices: book the dearer, change to the cheaper.
  const [dear, cheap] = (() => {
    const flights = Object.values(db.flights);
    for (const a of flights) {
      for (const [date, x] of Object.entries(a.dates)) {
        if (!isAvailable(x) || x.available_seats.economy < 1) continue;
        for (const b of flights) {
          const y = b.dates[date];
          if (
            b !== a &&
            b.origin === a.origin &&
            b.destination === a.destination &&
            isAvailable(y) &&
            y.available_seats.economy >= 1 &&
            y.prices.economy < x.prices.economy
          ) {
            return [
              { flight: a, date, instance: x },
              { flight: b, date, instance: y },
            ] as const;
          }
        }
      }
    }
    throw new Error('no two flights of a route with different prices');
  })();
  const session = await server.newSession();
  const state = async () => (await server.state(session)).airline;

  // 1. Book one passenger in economy, with insurance and one non-free bag: certificate first, then the gift card, then the card.
  const total = dear.instance.prices.economy + 30 + 50;
  const byCertificate = Math.min(certificate.amount, total);
  const byGiftCard = Math.min(giftCard.amount, total - byCertificate);
  const byCard = total - byCertificate - byGiftCard;
  const booked = await server.call(
    'airline',
    'book_reservation',
    {
      user_id: user.user_id,
      origin: dear.flight.origin,
      destination: dear.flight.destination,
      flight_type: 'one_way',
      cabin: 'economy',
      flights: [{ flight_number: dear.flight.flight_number, date: dear.date }],
      passengers: [{ first_name: user.name.first_name, last_name: user.name.last_name, dob: user.dob }],
      payment_methods: [
        { payment_id: certificate.id, amount: byCertificate },
        { payment_id: giftCard.id, amount: byGiftCard },
        { payment_id: creditCard.id, amount: byCard },
      ],
      total_baggages: 2,
      nonfree_baggages: 1,
      insurance: 'yes',
    },
    session,
  );
  t.equal(booked.status, 200, booked.text);
  t.equal(booked.body.reservation_id, 'HATHAT');
  const history = [
    { payment_id: certificate.id, amount: byCertificate },
    { payment_id: giftCard.id, amount: byGiftCard },
    { payment_id: creditCard.id, amount: byCard },
  ];
  let now = await state();
  t.strictSame(now.reservations.HATHAT.payment_history, history);
  t.notOk(now.users[user.user_id].payment_methods[certificate.id], 'the certificate is used up');
  let balance = giftCard.amount - byGiftCard;
  t.equal(now.users[user.user_id].payment_methods[giftCard.id].amount, balance, 'the gift card pays its part');

  // 2. Change to the cheaper flight, the gift card receiving the refund of the difference.
  const refund = cheap.instance.prices.economy - dear.instance.prices.economy;
  t.ok(refund < 0);
  const changed = await server.call(
    'airline',
    'update_reservation_flights',
    {
      reservation_id: 'HATHAT',
      cabin: 'economy',
      flights: [{ flight_number: cheap.flight.flight_number, date: cheap.date }],
      payment_id: giftCard.id,
    },
    session,
  );
  t.equal(changed.status, 200, changed.text);
  history.push({ payment_id: giftCard.id, amount: refund });
  balance -= refund;
  now = await state();
  t.strictSame(now.reservations.HATHAT.payment_history, history, 'a negative entry for the refund');
  t.strictSame(now.reservations.HATHAT.flights, [
    {
      origin: cheap.flight.origin,
      destination: cheap.flight.destination,
      flight_number: cheap.flight.flight_number,
      date: cheap.date,
      price: cheap.instance.prices.economy,
    },
  ]);
  t.equal(now.users[user.user_id].payment_methods[giftCard.id].amount, balance, 'the gift card is credited');

  // 3. Add two bags, one of them non-free: 50 on the credit card.
  const bags = await server.call(
    'airline',
    'update_reservation_baggages',
    { reservation_id: 'HATHAT', total_baggages: 4, nonfree_baggages: 2, payment_id: creditCard.id },
    session,
  );
  t.equal(bags.status, 200, bags.text);
  history.push({ payment_id: creditCard.id, amount: 50 });
  now = await state();
  t.strictSame(now.reservations.HATHAT.payment_history, history);
  t.equal(now.reservations.HATHAT.total_baggages, 4);
  t.equal(now.reservations.HATHAT.nonfree_baggages, 2);
  t.equal(now.users[user.user_id].payment_methods[giftCard.id].amount, balance, 'the card paid, not the gift card');

  // 4. Cancel: every entry is reversed; the gift card is not credited by the cancellation itself (tau2-bench).
  const cancelled = await server.call('airline', 'cancel_reservation', { reservation_id: 'HATHAT' }, session);
  t.equal(cancelled.status, 200, cancelled.text);
  now = await state();
  t.equal(now.reservations.HATHAT.status, 'cancelled');
  t.strictSame(now.reservations.HATHAT.payment_history, [...history, ...history.map(({ payment_id, amount }) => ({ payment_id, amount: -amount }))]);
  t.equal(
    now.reservations.HATHAT.payment_history.reduce((sum: number, p: { amount: number }) => sum + p.amount, 0),
    0,
    'the payments net to zero',
  );
  t.equal(now.users[user.user_id].payment_methods[giftCard.id].amount, balance);
  t.notOk(now.users[user.user_id].payment_methods[certificate.id], 'the certificate does not come back');
  t.strictSame(now.users[user.user_id].reservations, [...user.reservations, 'HATHAT']);
});
