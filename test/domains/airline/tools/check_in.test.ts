import t from 'tap';
import type { SeatMap } from '../../../../domains/airline/schema.js';
import checkIn from '../../../../domains/airline/tools/check_in.js';
import { airlineFixture } from '../../../helpers/airline.js';
import { expectRejections } from '../../../helpers/server.js';
import {
  checkInKey,
  checkInOf,
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
  segments,
  startAirline,
  type Segment,
} from '../../../helpers/airline-extra.js';

const NOW = '2024-05-15T15:00:00';
const HOUR = 3_600_000;
const MIN = 60_000;

/** The seats check-in must give: side by side in the frontmost row with room, else the frontmost free ones. */
function expectedNewSeats(map: SeatMap, cabin: keyof SeatMap['cabins'], count: number): string[] {
  const free = seatsOfLayout(map.cabins[cabin]).filter((seat) => !(seat in map.assigned));
  const rows = new Map<number, string[]>();
  for (const seat of free) rows.set(parseInt(seat, 10), [...(rows.get(parseInt(seat, 10)) ?? []), seat]);
  for (const seats of rows.values()) if (seats.length >= count) return seats.slice(0, count);
  return free.slice(0, count);
}

/** The highest sequence number the fixture gave on a flight date. */
function fixtureLastSequence(flight: string, date: string): number {
  let last = 0;
  for (const c of Object.values(airlineFixture().check_ins)) {
    if (c.flight_number === flight && c.date === date) for (const p of c.passengers) last = Math.max(last, p.sequence);
  }
  return last;
}

const bookable = (s: Segment) =>
  isActive(s.reservation) && s.status === 'available' && s.date >= '2024-05-17' && !checkInOf(s.reservation.reservation_id, s.flight_number, s.date);

t.test('check_in', async (t) => {
  const server = await startAirline(t);
  const db = airlineFixture();
  const diffOf = async (session: string) => (await server.request('GET', `/sessions/${session}/diff`)).body.airline;
  const argsOf = (s: Segment) => ({ reservation_id: s.reservation.reservation_id, flight_number: s.flight_number, date: s.date });

  // A regular member's economy reservation of several passengers, nobody seated yet.
  const seg = findSegment(
    (s) =>
      bookable(s) &&
      s.reservation.cabin === 'economy' &&
      s.user.membership === 'regular' &&
      s.reservation.passengers.length >= 2 &&
      s.reservation.passengers.every((p) => holderOf(seatMapOf(s.flight_number, s.date), s.reservation.reservation_id, p) === undefined),
  );

  t.test('checks everyone in: seats kept or given side by side, boarding groups, sequence numbers; session only', async (t) => {
    const at = estOf(estMs(seg.departure) - 2 * HOUR);
    const session = await clockAt(server, at);
    // The second passenger chose a seat at the back beforehand.
    const fixtureMap = seatMapOrDefault(seg.flight_number, seg.date);
    const chosen = seatsOfLayout(fixtureMap.cabins.economy)
      .filter((seat) => !(seat in fixtureMap.assigned))
      .at(-1)!;
    const p1 = seg.reservation.passengers[1]!;
    const holder1 = { reservation_id: seg.reservation.reservation_id, passenger: { first_name: p1.first_name, last_name: p1.last_name } };
    t.equal(
      (await server.call('airline', 'assign_seat', { ...argsOf(seg), first_name: p1.first_name, last_name: p1.last_name, seat: chosen }, session)).status,
      200,
    );
    const map = { ...fixtureMap, assigned: { ...fixtureMap.assigned, [chosen]: holder1 } };

    const held = seg.reservation.passengers.map((p) => holderOf(map, seg.reservation.reservation_id, p) ?? null);
    const given = expectedNewSeats(map, 'economy', held.filter((x) => x === null).length);
    let next = 0;
    let sequence = fixtureLastSequence(seg.flight_number, seg.date);
    const passengers = seg.reservation.passengers.map((p, i) => ({
      first_name: p.first_name,
      last_name: p.last_name,
      seat: held[i] ?? given[next++]!,
      boarding_group: 4,
      sequence: ++sequence,
    }));
    t.equal(passengers[1]!.seat, chosen, 'a seat held is kept');
    const record = { reservation_id: seg.reservation.reservation_id, flight_number: seg.flight_number, date: seg.date, checked_in_at: at, passengers };

    const reply = await server.call('airline', 'check_in', argsOf(seg), session);
    t.equal(reply.status, 200);
    t.ok(checkIn.output.safeParse(reply.body).success, 'matches the declared output');
    const flight = db.flights[seg.flight_number]!;
    t.same(reply.body, { ...record, cabin: 'economy', origin: flight.origin, destination: flight.destination });

    const diff = await diffOf(session);
    const key = checkInKey(seg.reservation.reservation_id, seg.flight_number, seg.date);
    t.same(
      diff.find((d: any) => d.table === 'check_ins'),
      { table: 'check_ins', id: key, op: 'insert', before: null, after: record },
    );
    const seats = diff.find((d: any) => d.table === 'seat_maps');
    t.equal(seats.id, seatMapKey(seg.flight_number, seg.date));
    const added = Object.fromEntries(
      passengers
        .filter((_, i) => held[i] === null)
        .map((p) => [p.seat, { reservation_id: seg.reservation.reservation_id, passenger: { first_name: p.first_name, last_name: p.last_name } }]),
    );
    t.same(seats.after.assigned, { ...map.assigned, ...added }, 'new seats on the map, nothing else');
    t.equal(diff.length, 2);

    const other = await clockAt(server, at);
    const pass = await server.call(
      'airline',
      'get_boarding_pass',
      { ...argsOf(seg), first_name: passengers[0]!.first_name, last_name: passengers[0]!.last_name },
      other,
    );
    t.equal(pass.status, 409, 'another session has no check-in');
    t.equal(pass.body.detail, 'Not checked in');

    const again = await server.call('airline', 'check_in', argsOf(seg), session);
    t.equal(again.status, 409);
    t.equal(again.body.detail, `Reservation ${seg.reservation.reservation_id} is already checked in for flight ${seg.flight_number} on ${seg.date}`);
    t.equal(again.body.code, 'already_checked_in');
  });

  t.test('the window: opens 24 h before the scheduled departure, closes 45 min before it (session clock)', async (t) => {
    const departure = estMs(seg.departure);
    const opens = estOf(departure - 24 * HOUR);
    const closes = estOf(departure - 45 * MIN);
    const name = `flight ${seg.flight_number} on ${seg.date}`;
    const cases = [
      {
        at: estOf(departure - 24 * HOUR - 1000),
        status: 409,
        detail: `Check-in for ${name} opens at ${opens} EST, 24 hours before the scheduled departure`,
        code: 'check_in_not_open',
      },
      { at: opens, status: 200 },
      { at: estOf(departure - 45 * MIN - 1000), status: 200 },
      { at: closes, status: 409, detail: `Check-in for ${name} closed at ${closes} EST, 45 minutes before the scheduled departure`, code: 'check_in_closed' },
      {
        at: estOf(departure - 10 * MIN),
        status: 409,
        detail: `Check-in for ${name} closed at ${closes} EST, 45 minutes before the scheduled departure`,
        code: 'check_in_closed',
      },
    ];
    for (const c of cases) {
      const session = await clockAt(server, c.at);
      const reply = await server.call('airline', 'check_in', argsOf(seg), session);
      t.equal(reply.status, c.status, `at ${c.at}`);
      if (c.status === 200) {
        t.equal(reply.body.checked_in_at, c.at);
        continue;
      }
      t.match(reply.body, { detail: c.detail, code: c.code, opens_at: opens, closes_at: closes });
      t.same(await diffOf(session), [], 'nothing written');
    }
  });

  t.test('boarding groups: 1 business, 2 gold, 3 silver, 4 economy, 5 basic economy', async (t) => {
    const cases: [string, (s: Segment) => boolean, number][] = [
      ['business (a regular member)', (s) => s.reservation.cabin === 'business' && s.user.membership === 'regular', 1],
      ['gold in basic economy', (s) => s.reservation.cabin === 'basic_economy' && s.user.membership === 'gold', 2],
      ['silver in economy', (s) => s.reservation.cabin === 'economy' && s.user.membership === 'silver', 3],
      ['regular in economy', (s) => s.reservation.cabin === 'economy' && s.user.membership === 'regular', 4],
      ['regular in basic economy', (s) => s.reservation.cabin === 'basic_economy' && s.user.membership === 'regular', 5],
    ];
    for (const [what, test, group] of cases) {
      const found = findSegment((s) => bookable(s) && test(s));
      const session = await clockAt(server, estOf(estMs(found.departure) - 3 * HOUR));
      const reply = await server.call('airline', 'check_in', argsOf(found), session);
      t.equal(reply.status, 200, what);
      t.same(
        reply.body.passengers.map((p: { boarding_group: number }) => p.boarding_group),
        found.reservation.passengers.map(() => group),
        what,
      );
      t.ok(
        reply.body.passengers.every((p: { seat: string | null }) => p.seat !== null),
        `${what}: everyone seated`,
      );
      const cabin = seatMapOrDefault(found.flight_number, found.date).cabins[found.reservation.cabin];
      const inCabin = new Set(seatsOfLayout(cabin));
      t.ok(
        reply.body.passengers.every((p: { seat: string }) => inCabin.has(p.seat)),
        `${what}: seats in the ${found.reservation.cabin} cabin`,
      );
    }
  });

  t.test('a full cabin: check-in still succeeds, without a seat, boarding group 6', async (t) => {
    const found = findSegment(
      (s) =>
        bookable(s) &&
        s.reservation.cabin === 'basic_economy' &&
        s.user.membership === 'regular' &&
        s.reservation.passengers.every((p) => holderOf(seatMapOf(s.flight_number, s.date), s.reservation.reservation_id, p) === undefined),
    );
    const key = seatMapKey(found.flight_number, found.date);
    const full = await startAirline(t, (copy) => {
      const map = copy.seat_maps[key] ?? {
        flight_number: found.flight_number,
        date: found.date,
        cabins: seatMapOrDefault(found.flight_number, found.date).cabins,
        assigned: {},
      };
      for (const seat of seatsOfLayout(map.cabins.basic_economy)) {
        if (!(seat in map.assigned)) map.assigned[seat] = { reservation_id: 'FULL00', passenger: { first_name: 'Seat', last_name: 'Filler' } };
      }
      copy.seat_maps[key] = map;
    });
    const session = await clockAt(full, estOf(estMs(found.departure) - 3 * HOUR));
    const reply = await full.call('airline', 'check_in', argsOf(found), session);
    t.equal(reply.status, 200);
    t.same(
      reply.body.passengers.map((p: { seat: string | null; boarding_group: number }) => [p.seat, p.boarding_group]),
      found.reservation.passengers.map(() => [null, 6]),
    );
    const diff = (await full.request('GET', `/sessions/${session}/diff`)).body.airline;
    t.same(
      diff.map((d: any) => d.table),
      ['check_ins'],
      'the seat map is not touched',
    );
  });

  t.test('sequence numbers go on after those already given on the flight', async (t) => {
    const withCheckIns = findSegment((s) => {
      if (!isActive(s.reservation) || checkInOf(s.reservation.reservation_id, s.flight_number, s.date)) return false;
      if (s.status !== 'on time' && s.status !== 'delayed' && s.status !== 'available') return false;
      const inWindow = estMs(s.departure) - 24 * HOUR <= estMs(NOW) && estMs(NOW) < estMs(s.departure) - 45 * MIN;
      return inWindow && fixtureLastSequence(s.flight_number, s.date) > 0;
    });
    const session = await clockAt(server, NOW);
    const reply = await server.call('airline', 'check_in', argsOf(withCheckIns), session);
    t.equal(reply.status, 200);
    const last = fixtureLastSequence(withCheckIns.flight_number, withCheckIns.date);
    t.same(
      reply.body.passengers.map((p: { sequence: number }) => p.sequence),
      withCheckIns.reservation.passengers.map((_, i) => last + 1 + i),
    );
  });

  t.test('reservations checked in at the same time on one flight never share a seat or a sequence number', async (t) => {
    const byFlight = new Map<string, Segment[]>();
    for (const s of segments()) {
      if (!bookable(s) || s.reservation.cabin !== 'economy') continue;
      const key = seatMapKey(s.flight_number, s.date);
      byFlight.set(key, [...(byFlight.get(key) ?? []), s]);
    }
    const group = [...byFlight.values()].find((list) => list.length >= 3)!.slice(0, 3);
    const session = await clockAt(server, estOf(estMs(group[0]!.departure) - 5 * HOUR));
    const replies = await Promise.all(group.map((s) => server.call('airline', 'check_in', argsOf(s), session)));
    t.same(
      replies.map((r) => r.status),
      [200, 200, 200],
    );
    const passengers = replies.flatMap((r) => r.body.passengers as { seat: string; sequence: number }[]);
    t.equal(new Set(passengers.map((p) => p.seat)).size, passengers.length, 'distinct seats');
    const start = fixtureLastSequence(group[0]!.flight_number, group[0]!.date);
    t.same(
      passengers.map((p) => p.sequence).sort((a, b) => a - b),
      passengers.map((_, i) => start + 1 + i),
      'consecutive sequence numbers',
    );
    const assigned = (await diffOf(session)).find((d: any) => d.table === 'seat_maps').after.assigned;
    for (const p of passengers) t.ok(p.seat in assigned, `${p.seat} on the map`);
  });

  t.test('rules: each broken one answers its status and detail, and nothing changes', async (t) => {
    const cancelled = findSegment((s) => !isActive(s.reservation) && s.status === 'available');
    const notCheckedIn = (s: Segment) => isActive(s.reservation) && !checkInOf(s.reservation.reservation_id, s.flight_number, s.date);
    const flying = findSegment((s) => notCheckedIn(s) && s.status === 'flying');
    const flightCancelled = findSegment((s) => notCheckedIn(s) && s.status === 'cancelled');
    const checkedIn = Object.values(db.check_ins).find((c) => isActive(db.reservations[c.reservation_id]!))!;
    const other = Object.values(db.flights).find(
      (f) => f.dates[seg.date] && !seg.reservation.flights.some((l) => l.flight_number === f.flight_number && l.date === seg.date),
    )!;
    const session = await clockAt(server, NOW);
    const cases = [
      { args: { ...argsOf(seg), reservation_id: 'NOPE00' }, status: 404, detail: 'Reservation NOPE00 not found' },
      { args: argsOf(cancelled), status: 409, detail: `Reservation ${cancelled.reservation.reservation_id} is cancelled` },
      { args: { ...argsOf(seg), flight_number: 'HAT999' }, status: 404, detail: 'Flight HAT999 not found' },
      { args: { ...argsOf(seg), date: '2023-01-01' }, status: 404, detail: `Flight ${seg.flight_number} not found on date 2023-01-01` },
      {
        args: { ...argsOf(seg), flight_number: other.flight_number },
        status: 404,
        detail: `Flight ${other.flight_number} on ${seg.date} is not part of reservation ${seg.reservation.reservation_id}`,
      },
      { args: argsOf(flying), status: 409, detail: `Flight ${flying.flight_number} on ${flying.date} has already departed` },
      { args: argsOf(flightCancelled), status: 409, detail: `Flight ${flightCancelled.flight_number} on ${flightCancelled.date} is cancelled` },
      {
        args: { reservation_id: checkedIn.reservation_id, flight_number: checkedIn.flight_number, date: checkedIn.date },
        status: 409,
        detail: `Reservation ${checkedIn.reservation_id} is already checked in for flight ${checkedIn.flight_number} on ${checkedIn.date}`,
      },
    ];
    await expectRejections(t, server, 'airline', 'check_in', cases, session);
    t.same(await diffOf(session), [], 'no record changed');
  });

  t.test('bad argument types: 400', async (t) => {
    for (const args of [
      { ...argsOf(seg), date: 20240517 },
      { ...argsOf(seg), reservation_id: null },
      { reservation_id: seg.reservation.reservation_id },
      { ...argsOf(seg), seat: '12C' },
    ]) {
      const reply = await server.call('airline', 'check_in', args);
      t.equal(reply.status, 400, JSON.stringify(args));
      t.equal(reply.body.code, 'invalid_input');
    }
  });
});
