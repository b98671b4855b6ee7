import t from 'tap';
import type { CheckIn, FlightDateStatus } from '../../../../domains/airline/schema.js';
import getBoardingPass from '../../../../domains/airline/tools/get_boarding_pass.js';
import { airlineFixture } from '../../../helpers/airline.js';
import { expectRejections } from '../../../helpers/server.js';
import { checkInOf, clockAt, estMs, estOf, findSegment, isActive, localOf, scheduledEst, startAirline, type Segment } from '../../../helpers/airline-extra.js';

const NOW = '2024-05-15T15:00:00';

/** The departure the pass shows: actual, else estimated, else scheduled (Eastern). */
function departureEst(flightNumber: string, date: string): string {
  const flight = airlineFixture().flights[flightNumber]!;
  const s: FlightDateStatus = flight.dates[date]!;
  if ('actual_departure_time_est' in s) return s.actual_departure_time_est;
  if ('estimated_departure_time_est' in s) return s.estimated_departure_time_est;
  return scheduledEst(date, flight.scheduled_departure_time_est);
}

const COMPARTMENT = { business: 'J', economy: 'Y', basic_economy: 'N' } as const;

/** The BCBP-style barcode text, field by field. */
function barcode(c: {
  last: string;
  first: string;
  pnr: string;
  from: string;
  to: string;
  flight: string;
  date: string;
  cabin: keyof typeof COMPARTMENT;
  seat: string | null;
  sequence: number;
}): string {
  const name = `${c.last.toUpperCase()}/${c.first.toUpperCase()}`.slice(0, 20).padEnd(20, ' ');
  const dayOfYear = String(
    Math.round((Date.UTC(2024, Number(c.date.slice(5, 7)) - 1, Number(c.date.slice(8, 10))) - Date.UTC(2024, 0, 1)) / 86_400_000) + 1,
  ).padStart(3, '0');
  const number = c.flight.replace(/^[A-Z]+/, '').padStart(4, '0');
  const seat = c.seat === null ? 'GATE' : c.seat.padStart(4, '0');
  return `M1${name}E${c.pnr.padEnd(7, ' ')}${c.from}${c.to}HAT${number} ${dayOfYear}${COMPARTMENT[c.cabin]}${seat}${String(c.sequence).padStart(4, '0')} 100`;
}

t.test('get_boarding_pass', async (t) => {
  const server = await startAirline(t);
  const db = airlineFixture();
  const diffOf = async (session: string) => (await server.request('GET', `/sessions/${session}/diff`)).body.airline;

  const usable = (c: CheckIn) => isActive(db.reservations[c.reservation_id]!) && db.flights[c.flight_number]!.dates[c.date]!.status !== 'cancelled';
  const checkedIn = Object.values(db.check_ins).find(
    (c) => usable(c) && c.passengers.every((p) => p.seat !== null) && /^[A-Za-z]+$/.test(c.passengers[0]!.last_name),
  )!;

  t.test("a checked-in passenger's pass: seat, group, sequence from the check-in; gate as on the board; local times; barcode", async (t) => {
    const session = await clockAt(server, NOW);
    const reservation = db.reservations[checkedIn.reservation_id]!;
    const flight = db.flights[checkedIn.flight_number]!;
    const p = checkedIn.passengers[0]!;
    const reply = await server.call(
      'airline',
      'get_boarding_pass',
      {
        reservation_id: reservation.reservation_id,
        flight_number: flight.flight_number,
        date: checkedIn.date,
        first_name: p.first_name,
        last_name: p.last_name,
      },
      session,
    );
    t.equal(reply.status, 200);
    t.ok(getBoardingPass.output.safeParse(reply.body).success, 'matches the declared output');
    const board = await server.call('airline', 'get_flight_board', { airport: flight.origin, date: checkedIn.date, direction: 'departures' }, session);
    const row = board.body.flights.find((r: { flight_number: string }) => r.flight_number === flight.flight_number);
    const zone = db.airports[flight.origin]!.timezone;
    const departure = departureEst(flight.flight_number, checkedIn.date);
    t.same(reply.body, {
      passenger: { first_name: p.first_name, last_name: p.last_name },
      reservation_id: reservation.reservation_id,
      flight: flight.flight_number,
      date: checkedIn.date,
      origin: flight.origin,
      destination: flight.destination,
      seat: p.seat,
      cabin: reservation.cabin,
      boarding_group: p.boarding_group,
      sequence: p.sequence,
      gate: row.gate,
      terminal: row.terminal,
      departure_time: localOf(departure, zone),
      boarding_time: localOf(estOf(estMs(departure) - 40 * 60_000), zone),
      barcode: barcode({
        last: p.last_name,
        first: p.first_name,
        pnr: reservation.reservation_id,
        from: flight.origin,
        to: flight.destination,
        flight: flight.flight_number,
        date: checkedIn.date,
        cabin: reservation.cabin,
        seat: p.seat,
        sequence: p.sequence,
      }),
    });
    const again = await server.call(
      'airline',
      'get_boarding_pass',
      {
        reservation_id: reservation.reservation_id.toLowerCase(),
        flight_number: flight.flight_number,
        date: checkedIn.date,
        first_name: p.first_name.toLowerCase(),
        last_name: p.last_name,
      },
      await clockAt(server, '2024-05-15T18:00:00'),
    );
    t.same(again.body, reply.body, 'the same pass on every call, ids and names in any case');
    t.same(await diffOf(session), [], 'reads only');
  });

  t.test('a passenger checked in without a seat: seat null, GATE in the barcode', async (t) => {
    const seatless = Object.values(db.check_ins).find((c) => usable(c) && c.passengers.some((p) => p.seat === null));
    t.ok(seatless, 'the fixture has a passenger checked in without a seat');
    if (!seatless) return;
    const p = seatless.passengers.find((q) => q.seat === null)!;
    const reply = await server.call('airline', 'get_boarding_pass', {
      reservation_id: seatless.reservation_id,
      flight_number: seatless.flight_number,
      date: seatless.date,
      first_name: p.first_name,
      last_name: p.last_name,
    });
    t.equal(reply.status, 200);
    t.equal(reply.body.seat, null);
    t.match(reply.body.barcode, /GATE\d{4} 100$/);
  });

  t.test("before check-in: 409 'Not checked in'; after check_in in the session, the pass", async (t) => {
    const seg = findSegment(
      (s: Segment) =>
        isActive(s.reservation) && s.status === 'available' && s.date >= '2024-05-17' && !checkInOf(s.reservation.reservation_id, s.flight_number, s.date),
    );
    const p = seg.reservation.passengers[0]!;
    const args = {
      reservation_id: seg.reservation.reservation_id,
      flight_number: seg.flight_number,
      date: seg.date,
      first_name: p.first_name,
      last_name: p.last_name,
    };
    const session = await clockAt(server, estOf(estMs(seg.departure) - 3 * 3_600_000));
    await expectRejections(t, server, 'airline', 'get_boarding_pass', [{ args, status: 409, detail: 'Not checked in' }], session);
    const checkIn = await server.call(
      'airline',
      'check_in',
      { reservation_id: seg.reservation.reservation_id, flight_number: seg.flight_number, date: seg.date },
      session,
    );
    t.equal(checkIn.status, 200);
    const pass = await server.call('airline', 'get_boarding_pass', args, session);
    t.equal(pass.status, 200);
    t.match(pass.body, {
      seat: checkIn.body.passengers[0].seat,
      boarding_group: checkIn.body.passengers[0].boarding_group,
      sequence: checkIn.body.passengers[0].sequence,
    });
    const zone = db.airports[db.flights[seg.flight_number]!.origin]!.timezone;
    t.equal(pass.body.boarding_time, localOf(estOf(estMs(seg.departure) - 40 * 60_000), zone), 'boarding 40 minutes before the scheduled departure');
  });

  t.test('rules: each broken one answers its status and detail', async (t) => {
    const reservation = db.reservations[checkedIn.reservation_id]!;
    const p = checkedIn.passengers[0]!;
    const base = {
      reservation_id: reservation.reservation_id,
      flight_number: checkedIn.flight_number,
      date: checkedIn.date,
      first_name: p.first_name,
      last_name: p.last_name,
    };
    const cancelled = findSegment((s) => !isActive(s.reservation));
    const flightCancelled = findSegment((s) => isActive(s.reservation) && s.status === 'cancelled');
    const other = Object.values(db.flights).find(
      (f) => f.dates[checkedIn.date] && !reservation.flights.some((l) => l.flight_number === f.flight_number && l.date === checkedIn.date),
    )!;
    const first = (s: Segment) => ({
      reservation_id: s.reservation.reservation_id,
      flight_number: s.flight_number,
      date: s.date,
      first_name: s.reservation.passengers[0]!.first_name,
      last_name: s.reservation.passengers[0]!.last_name,
    });
    const cases = [
      { args: { ...base, reservation_id: 'NOPE00' }, status: 404, detail: 'Reservation NOPE00 not found' },
      { args: first(cancelled), status: 409, detail: `Reservation ${cancelled.reservation.reservation_id} is cancelled` },
      { args: { ...base, flight_number: 'HAT999' }, status: 404, detail: 'Flight HAT999 not found' },
      {
        args: { ...base, flight_number: other.flight_number },
        status: 404,
        detail: `Flight ${other.flight_number} on ${checkedIn.date} is not part of reservation ${reservation.reservation_id}`,
      },
      { args: { ...base, first_name: 'Nobody' }, status: 404, detail: `Passenger Nobody ${p.last_name} is not on reservation ${reservation.reservation_id}` },
      { args: first(flightCancelled), status: 409, detail: `Flight ${flightCancelled.flight_number} on ${flightCancelled.date} is cancelled` },
    ];
    await expectRejections(t, server, 'airline', 'get_boarding_pass', cases);
    for (const args of [{ ...base, last_name: 7 }, { ...base, first_name: '' }, { reservation_id: reservation.reservation_id }]) {
      const reply = await server.call('airline', 'get_boarding_pass', args);
      t.equal(reply.status, 400, JSON.stringify(args));
      t.equal(reply.body.code, 'invalid_input');
    }
  });
});
