import t from 'tap';
import assignSeat from '../../../../domains/airline/tools/assign_seat.js';
import { airlineFixture } from '../../../helpers/airline.js';
import { expectRejections } from '../../../helpers/server.js';
import {
  checkInKey,
  clockAt,
  estMs,
  estOf,
  findSegment,
  holderOf,
  isActive,
  seatMapKey,
  seatMapOf,
  seatMapOrDefault,
  seatsOfLayout,
  startAirline,
} from '../../../helpers/airline-extra.js';

const NOW = '2024-05-15T15:00:00';

t.test('assign_seat', async (t) => {
  const server = await startAirline(t);
  const db = airlineFixture();

  // An economy reservation of several passengers, on a bookable flight whose map holds others' seats,
  // whose first passenger has no seat yet.
  const seg = findSegment(
    (s) =>
      isActive(s.reservation) &&
      s.status === 'available' &&
      s.reservation.cabin === 'economy' &&
      s.reservation.passengers.length >= 3 &&
      holderOf(seatMapOf(s.flight_number, s.date), s.reservation.reservation_id, s.reservation.passengers[0]!) === undefined &&
      Object.entries(seatMapOf(s.flight_number, s.date)?.assigned ?? {}).some(
        ([seat, h]) => h.reservation_id !== s.reservation.reservation_id && Number.parseInt(seat, 10) >= 10 && Number.parseInt(seat, 10) <= 30,
      ),
  );
  const { reservation, flight_number, date } = seg;
  const key = seatMapKey(flight_number, date);
  const map = seatMapOrDefault(flight_number, date);
  const free = seatsOfLayout(map.cabins.economy).filter((seat) => !(seat in map.assigned));
  const [p0, p1, p2] = reservation.passengers as [(typeof reservation.passengers)[0], (typeof reservation.passengers)[0], (typeof reservation.passengers)[0]];
  const who = (p: { first_name: string; last_name: string }) => ({ first_name: p.first_name, last_name: p.last_name });
  const args = (p: { first_name: string; last_name: string }, seat: string) => ({
    reservation_id: reservation.reservation_id,
    flight_number,
    date,
    first_name: p.first_name,
    last_name: p.last_name,
    seat,
  });
  const diffOf = async (session: string) => (await server.request('GET', `/sessions/${session}/diff`)).body.airline;

  t.test('seats a passenger in a free seat of the cabin; the session sees it, others do not', async (t) => {
    const session = await clockAt(server, NOW);
    const seat = free[free.length - 1]!;
    const reply = await server.call('airline', 'assign_seat', args(p0, seat.toLowerCase()), session);
    t.equal(reply.status, 200);
    t.ok(assignSeat.output.safeParse(reply.body).success, 'matches the declared output');
    t.same(reply.body, { reservation_id: reservation.reservation_id, flight_number, date, passenger: who(p0), cabin: 'economy', seat, previous_seat: null });

    const diff = await diffOf(session);
    t.equal(diff.length, 1, 'one record changed');
    t.match(diff[0], { table: 'seat_maps', id: key, op: seatMapOf(flight_number, date) ? 'update' : 'insert' });
    t.same(diff[0].after.assigned, { ...map.assigned, [seat]: { reservation_id: reservation.reservation_id, passenger: who(p0) } }, 'only that seat added');
    t.same(
      Object.keys(diff[0].after.assigned),
      Object.keys(diff[0].after.assigned).sort((a, b) => parseInt(a, 10) - parseInt(b, 10) || a.localeCompare(b)),
      'seats kept in seat order',
    );

    const seen = await server.call('airline', 'get_seat_map', { flight_number, date, cabin: 'economy' }, session);
    t.ok(seen.body.cabins[0].occupied.includes(seat), 'taken in this session');
    const elsewhere = await server.call('airline', 'get_seat_map', { flight_number, date, cabin: 'economy' }, await clockAt(server, NOW));
    t.ok(elsewhere.body.cabins[0].available.includes(seat), 'still free in another session');
  });

  t.test('moving frees the old seat; asking again for the same seat changes nothing', async (t) => {
    const session = await clockAt(server, NOW);
    const [first, second] = [free[0]!, free[1]!];
    t.equal((await server.call('airline', 'assign_seat', args(p0, first), session)).status, 200);
    const moved = await server.call('airline', 'assign_seat', args(p0, second), session);
    t.equal(moved.status, 200);
    t.equal(moved.body.previous_seat, first);
    const assigned = (await diffOf(session))[0].after.assigned;
    t.notOk(first in assigned, 'old seat freed');
    t.same(assigned[second], { reservation_id: reservation.reservation_id, passenger: who(p0) });
    t.equal(
      Object.values(assigned).filter(
        (h: any) => h.reservation_id === reservation.reservation_id && h.passenger.first_name === p0.first_name && h.passenger.last_name === p0.last_name,
      ).length,
      1,
      'one seat per passenger',
    );

    const before = JSON.stringify(await diffOf(session));
    const again = await server.call(
      'airline',
      'assign_seat',
      args({ first_name: p0.first_name.toUpperCase(), last_name: ` ${p0.last_name}` }, second),
      session,
    );
    t.equal(again.status, 200, 'names match ignoring case and spaces');
    t.same(again.body, {
      reservation_id: reservation.reservation_id,
      flight_number,
      date,
      passenger: who(p0),
      cabin: 'economy',
      seat: second,
      previous_seat: second,
    });
    t.equal(JSON.stringify(await diffOf(session)), before, 'nothing changed');
    const journal = await server.journal(session);
    t.same(journal.at(-1).changes ?? [], [], 'the call journaled no change');
  });

  t.test('never two passengers in one seat: the second gets 409, in turn or at the same time', async (t) => {
    const session = await clockAt(server, NOW);
    const seat = free[2]!;
    t.equal((await server.call('airline', 'assign_seat', args(p0, seat), session)).status, 200);
    const second = await server.call('airline', 'assign_seat', args(p1, seat), session);
    t.equal(second.status, 409);
    t.equal(second.body.detail, `Seat ${seat} is already taken`);
    t.equal(second.body.code, 'seat_taken');

    const racing = await clockAt(server, NOW);
    const target = free[3]!;
    const replies = await Promise.all([p0, p1, p2, p0, p1, p2].map((p) => server.call('airline', 'assign_seat', args(p, target), racing)));
    const won = replies.filter((r) => r.status === 200);
    const winner = won[0]!.body.passenger;
    t.ok(
      won.every((r) => r.body.passenger.first_name === winner.first_name && r.body.passenger.last_name === winner.last_name),
      'only one passenger ever gets it',
    );
    for (const r of replies.filter((r) => r.status !== 200)) {
      t.equal(r.status, 409);
      t.equal(r.body.detail, `Seat ${target} is already taken`);
    }
    const assigned = (await diffOf(racing))[0].after.assigned;
    t.same(assigned[target], { reservation_id: reservation.reservation_id, passenger: winner });
  });

  t.test('a seat someone else holds in the fixture is taken', async (t) => {
    const [seat] = Object.entries(map.assigned).find(
      ([s, h]) => h.reservation_id !== reservation.reservation_id && parseInt(s, 10) >= 10 && parseInt(s, 10) <= 30,
    )!;
    const session = await clockAt(server, NOW);
    await expectRejections(t, server, 'airline', 'assign_seat', [{ args: args(p0, seat), status: 409, detail: `Seat ${seat} is already taken` }], session);
    t.same(await diffOf(session), []);
  });

  t.test("a checked-in passenger's boarding record follows the new seat", async (t) => {
    const found = Object.values(db.check_ins).find((c) => {
      const r = db.reservations[c.reservation_id]!;
      const s = db.flights[c.flight_number]!.dates[c.date]!;
      return (
        isActive(r) &&
        (s.status === 'available' || ((s.status === 'on time' || s.status === 'delayed') && estMs(s.estimated_departure_time_est) > estMs(NOW))) &&
        c.passengers.every((p) => p.seat !== null)
      );
    })!;
    const r = db.reservations[found.reservation_id]!;
    const m = seatMapOrDefault(found.flight_number, found.date);
    const seat = seatsOfLayout(m.cabins[r.cabin]).find((s) => !(s in m.assigned))!;
    const p = found.passengers[0]!;
    const session = await clockAt(server, NOW);
    const reply = await server.call(
      'airline',
      'assign_seat',
      { reservation_id: r.reservation_id, flight_number: found.flight_number, date: found.date, first_name: p.first_name, last_name: p.last_name, seat },
      session,
    );
    t.equal(reply.status, 200);
    t.equal(reply.body.previous_seat, p.seat);
    const diff = await diffOf(session);
    const checkIn = diff.find((d: any) => d.table === 'check_ins');
    t.match(checkIn, { id: checkInKey(r.reservation_id, found.flight_number, found.date), op: 'update', fields: ['passengers'] });
    t.same(
      checkIn.after.passengers,
      found.passengers.map((q, i) => (i === 0 ? { ...q, seat } : q)),
      'seat changed, group and sequence kept',
    );
    const pass = await server.call(
      'airline',
      'get_boarding_pass',
      { reservation_id: r.reservation_id, flight_number: found.flight_number, date: found.date, first_name: p.first_name, last_name: p.last_name },
      session,
    );
    t.equal(pass.body.seat, seat);
  });

  t.test('a flight date without a seat map gets one: the default aircraft with that seat taken', async (t) => {
    const bare = findSegment((s) => isActive(s.reservation) && s.status === 'available' && seatMapOf(s.flight_number, s.date) === undefined);
    const p = bare.reservation.passengers[0]!;
    const cabin = seatMapOrDefault(bare.flight_number, bare.date).cabins[bare.reservation.cabin];
    const seat = `${cabin.rows[1]}${cabin.letters[0]}`;
    const session = await clockAt(server, NOW);
    const reply = await server.call(
      'airline',
      'assign_seat',
      {
        reservation_id: bare.reservation.reservation_id,
        flight_number: bare.flight_number,
        date: bare.date,
        first_name: p.first_name,
        last_name: p.last_name,
        seat,
      },
      session,
    );
    t.equal(reply.status, 200);
    t.same(await diffOf(session), [
      {
        table: 'seat_maps',
        id: seatMapKey(bare.flight_number, bare.date),
        op: 'insert',
        before: null,
        after: {
          ...seatMapOrDefault(bare.flight_number, bare.date),
          assigned: { [seat]: { reservation_id: bare.reservation.reservation_id, passenger: who(p) } },
        },
      },
    ]);
  });

  t.test('a passenger checked in without a seat gets one, and the boarding group of a seated passenger', async (t) => {
    const found = Object.values(db.check_ins).find((c) => {
      const r = db.reservations[c.reservation_id]!;
      const s = db.flights[c.flight_number]!.dates[c.date]!;
      const ahead =
        s.status === 'available' || ((s.status === 'on time' || s.status === 'delayed') && estMs(s.estimated_departure_time_est) > estMs(NOW) + 3_600_000);
      return isActive(r) && ahead && r.cabin === 'basic_economy' && db.users[r.user_id]!.membership === 'regular' && c.passengers.some((p) => p.seat === null);
    });
    t.ok(found, 'the fixture has a seatless check-in ahead');
    if (!found) return;
    const r = db.reservations[found.reservation_id]!;
    const m = seatMapOrDefault(found.flight_number, found.date);
    const seat = seatsOfLayout(m.cabins.basic_economy).find((x) => !(x in m.assigned))!;
    const index = found.passengers.findIndex((p) => p.seat === null);
    const p = found.passengers[index]!;
    const session = await clockAt(server, NOW);
    const reply = await server.call(
      'airline',
      'assign_seat',
      { reservation_id: r.reservation_id, flight_number: found.flight_number, date: found.date, first_name: p.first_name, last_name: p.last_name, seat },
      session,
    );
    t.equal(reply.status, 200);
    t.equal(reply.body.previous_seat, null);
    const checkIn = (await diffOf(session)).find((d: any) => d.table === 'check_ins');
    t.same(checkIn.after.passengers[index], { ...p, seat, boarding_group: 5 });
  });

  t.test('rules: each broken one answers its status and detail, and nothing changes', async (t) => {
    const cancelled = findSegment((s) => !isActive(s.reservation));
    const flying = findSegment((s) => isActive(s.reservation) && s.status === 'flying');
    const landed = findSegment((s) => isActive(s.reservation) && s.status === 'landed');
    const flightCancelled = findSegment((s) => isActive(s.reservation) && s.status === 'cancelled');
    const other = Object.values(db.flights).find(
      (f) => f.dates[date] && !reservation.flights.some((l) => l.flight_number === f.flight_number && l.date === date),
    )!;
    const at = (s: typeof flying) => ({
      reservation_id: s.reservation.reservation_id,
      flight_number: s.flight_number,
      date: s.date,
      first_name: s.reservation.passengers[0]!.first_name,
      last_name: s.reservation.passengers[0]!.last_name,
      seat: '20C',
    });
    const session = await clockAt(server, NOW);
    const cases = [
      { args: { ...args(p0, free[0]!), reservation_id: 'NOPE00' }, status: 404, detail: 'Reservation NOPE00 not found' },
      { args: at(cancelled), status: 409, detail: `Reservation ${cancelled.reservation.reservation_id} is cancelled` },
      { args: { ...args(p0, free[0]!), flight_number: 'HAT999' }, status: 404, detail: 'Flight HAT999 not found' },
      { args: { ...args(p0, free[0]!), date: '2023-01-01' }, status: 404, detail: `Flight ${flight_number} not found on date 2023-01-01` },
      {
        args: { ...args(p0, free[0]!), flight_number: other.flight_number },
        status: 404,
        detail: `Flight ${other.flight_number} on ${date} is not part of reservation ${reservation.reservation_id}`,
      },
      {
        args: { ...args(p0, free[0]!), first_name: 'Nobody', last_name: 'Here' },
        status: 404,
        detail: `Passenger Nobody Here is not on reservation ${reservation.reservation_id}`,
      },
      { args: at(flying), status: 409, detail: `Flight ${flying.flight_number} on ${flying.date} has already departed` },
      { args: at(landed), status: 409, detail: `Flight ${landed.flight_number} on ${landed.date} has already landed` },
      { args: at(flightCancelled), status: 409, detail: `Flight ${flightCancelled.flight_number} on ${flightCancelled.date} is cancelled` },
      { args: args(p0, '99Z'), status: 422, detail: `Seat 99Z does not exist on flight ${flight_number}` },
      { args: args(p0, 'window'), status: 422, detail: `Seat window does not exist on flight ${flight_number}` },
      {
        args: args(p0, '2C'),
        status: 422,
        detail: `Seat 2C is in the business cabin; reservation ${reservation.reservation_id} flies economy (rows 10-30, letters ABCDEF)`,
      },
      {
        args: args(p0, '33A'),
        status: 422,
        detail: `Seat 33A is in the basic_economy cabin; reservation ${reservation.reservation_id} flies economy (rows 10-30, letters ABCDEF)`,
      },
    ];
    await expectRejections(t, server, 'airline', 'assign_seat', cases, session);
    t.same(await diffOf(session), [], 'no record changed');
  });

  t.test('the session clock: no seat once the flight has left', async (t) => {
    const departed = await clockAt(server, estOf(estMs(seg.departure) + 1000));
    const reply = await server.call('airline', 'assign_seat', args(p0, free[0]!), departed);
    t.equal(reply.status, 409);
    t.equal(reply.body.detail, `Flight ${flight_number} on ${date} has already departed`);
    t.same(await diffOf(departed), []);
  });

  t.test('bad argument types: 400', async (t) => {
    const bad = [
      { ...args(p0, free[0]!), seat: 12 },
      { ...args(p0, free[0]!), seat: '' },
      { ...args(p0, free[0]!), first_name: undefined },
      { ...args(p0, free[0]!), date: 'tomorrow' },
      { ...args(p0, free[0]!), cabin: 'economy' },
    ];
    for (const a of bad) {
      const reply = await server.call('airline', 'assign_seat', a);
      t.equal(reply.status, 400, JSON.stringify(a));
      t.equal(reply.body.code, 'invalid_input');
    }
  });
});
