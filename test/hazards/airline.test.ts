import t, { type Test } from 'tap';
import { ONESTOP_HORIZON, ONESTOP_REASON } from '../../domains/airline/hazards/index.js';
import type { Flight } from '../../domains/airline/schema.js';
import { aBooking, airlineFixture, findFlightDate, findReservation, findUser, isAvailable, methodsOf } from '../helpers/airline.js';
import type { JournalEntry, Obj } from '../helpers/hazards.js';
import { type Reply, startServer, type TestServer } from '../helpers/server.js';

// The airline domain's scenarios (domains/airline/hazards/), one subtest each: the hazard fires
// only when enabled, and the recovery the scenario promises works.

const db = airlineFixture();
const flights = Object.values(db.flights);

const call = (server: TestServer, tool: string, args: unknown, session = 'a') => server.call('airline', tool, args, session);
const kindsIn = async (server: TestServer, session: string) => (await server.journal<JournalEntry>(session)).flatMap((e) => e.hazards.map((h) => h.kind));
const eventsOf = async (server: TestServer, session: string) => (await server.journal<JournalEntry>(session)).flatMap((e) => e.hazards);
const sorted = (items: unknown[]) => items.map((item) => JSON.stringify(item)).sort();

/** A tool as the session's native listing shows it. */
const listed = async (server: TestServer, session: string) =>
  (
    (await server.request('GET', `/s/${session}/airline/tools?format=openai`)).body as { function: { name: string; description: string; parameters: Obj } }[]
  ).map((e) => e.function);

// ---- data --------------------------------------------------------------------------------------

const { booker, bookable, price, args: booking } = aBooking();
const direct = { origin: bookable.flight.origin, destination: bookable.flight.destination, date: bookable.date };

/** A one-stop search after the horizon whose itineraries connect through several airports. */
function onestopRoute(): { origin: string; destination: string; date: string; connections: number } {
  const date = '2024-05-25';
  const open = (f: Flight, d: string) => isAvailable(f.dates[d]);
  const best = new Map<string, Set<string>>();
  for (const first of flights) {
    if (!open(first, date)) continue;
    for (const second of flights) {
      if (second.origin !== first.destination || second.destination === first.origin) continue;
      const d = first.scheduled_arrival_time_est.includes('+1') ? '2024-05-26' : date;
      if (!open(second, d) || second.scheduled_departure_time_est < first.scheduled_arrival_time_est) continue;
      const key = `${first.origin}/${second.destination}`;
      best.set(key, (best.get(key) ?? new Set()).add(first.destination));
    }
  }
  const [key, via] = [...best.entries()].sort((a, b) => b[1].size - a[1].size)[0]!;
  const [origin, destination] = key.split('/') as [string, string];
  return { origin, destination, date, connections: via.size };
}
const { connections, ...onestop } = onestopRoute();

const addDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** One-stop itineraries rebuilt from direct searches of each leg (the workaround). */
async function itinerariesByLegs(
  t: Test,
  server: TestServer,
  session: string,
  route: { origin: string; destination: string; date: string },
  via?: readonly string[],
) {
  const airports = ((await call(server, 'list_all_airports', {}, session)).body as { iata: string }[]).map((a) => a.iata);
  const pairs: [Obj, Obj][] = [];
  for (const connection of via ?? airports.filter((a) => a !== route.origin && a !== route.destination)) {
    const firsts = await call(server, 'search_direct_flight', { origin: route.origin, destination: connection, date: route.date }, session);
    t.equal(firsts.status, 200, `${route.origin} → ${connection}`);
    for (const first of firsts.body as Obj[]) {
      const date = String(first['scheduled_arrival_time_est']).includes('+1') ? addDay(route.date) : route.date;
      const seconds = await call(server, 'search_direct_flight', { origin: connection, destination: route.destination, date }, session);
      for (const second of seconds.body as Obj[]) {
        if (second['scheduled_departure_time_est'] < first['scheduled_arrival_time_est']) continue;
        pairs.push([
          { ...first, date: route.date },
          { ...second, date },
        ]);
      }
    }
  }
  return pairs;
}

/** Repeats a call until it answers 200 with JSON (a retryable fault gives way after max_consecutive). */
async function retried(server: TestServer, tool: string, args: unknown, session: string) {
  const statuses: (number | string)[] = [];
  for (let i = 0; i < 6; i++) {
    let reply: Reply<any> | undefined;
    try {
      reply = await call(server, tool, args, session);
    } catch (error) {
      statuses.push((error as Error).name);
      continue;
    }
    statuses.push(reply.status);
    if (reply.status === 200 && typeof reply.body === 'object' && reply.body !== null) return { reply, statuses };
  }
  throw new Error(`${tool} never answered: ${statuses.join(', ')}`);
}

t.test('the fixture has what these tests need', async (t) => {
  t.ok(price > 0, `a bookable flight (${bookable.flight.flight_number} ${bookable.date})`);
  t.ok(connections >= 2, `a one-stop route after ${ONESTOP_HORIZON} with several connections (${JSON.stringify(onestop)}, ${connections})`);
  t.ok(onestop.date > ONESTOP_HORIZON);
});

t.test('without hazard variables nothing fires on any airline tool', async (t) => {
  const off = await startServer(t);
  const reservation = findReservation(() => true);
  for (const [tool, args] of [
    ['search_direct_flight', direct],
    ['search_onestop_flight', onestop],
    ['get_reservation_details', { reservation_id: reservation.reservation_id }],
    ['get_user_details', { user_id: booker.user_id }],
    ['get_flight_status', { flight_number: bookable.flight.flight_number, date: bookable.date }],
    ['get_flight_board', { airport: bookable.flight.origin, date: bookable.date, direction: 'departures' }],
    ['book_reservation', booking()],
  ] as const)
    t.equal((await call(off, tool, args, 'off')).status, 200, `${tool} answers`);
  t.same(await kindsIn(off, 'off'), [], 'no hazard event');
  t.notOk(
    (await listed(off, 'off')).some((tool) => tool.name === 'search_flights_v1'),
    'no decoy listed',
  );
});

// ---- specification -----------------------------------------------------------------------------

t.test('adhoc_rule on get_flight_status: the flight number without its carrier code', async (t) => {
  const args = { flight_number: bookable.flight.flight_number, date: bookable.date };
  const digits = bookable.flight.flight_number.replace(/^HAT/, '');
  const off = await startServer(t);
  const canonical = (await call(off, 'get_flight_status', args, 'off')).body;
  t.equal((await call(off, 'get_flight_status', args, 'off')).status, 200, `off: ${args.flight_number} as the searches write it`);
  t.notMatch((await listed(off, 'off')).find((e) => e.name === 'get_flight_status')!.description, /carrier code/, 'off: no rule listed');

  const on = await startServer(t, { hazardEnv: { HAZARD__ADHOC_RULE__GET_FLIGHT_STATUS: 'on', HAZARD_SEED: '1' } });
  const tool = (await listed(on, 'a')).find((e) => e.name === 'get_flight_status')!;
  t.match(tool.description, /without the carrier code/, 'the listing states the convention');
  t.match(tool.parameters, { properties: { flight_number: { description: /digits only/ } } }, 'and the parameter says it instead of its example');
  const refused = await call(on, 'get_flight_status', args);
  t.equal(refused.status, 422, `'${args.flight_number}' refused`);
  t.match(refused.body, { code: 'invalid_format', detail: 'flight_number: invalid format', field: 'flight_number' });
  const answered = await call(on, 'get_flight_status', { ...args, flight_number: digits });
  t.same([answered.status, answered.body], [200, canonical], `'${digits}': the flight's status`);
  t.equal((await call(on, 'get_flight_status', { ...args, flight_number: String(Number(digits)) })).body, canonical, 'without leading zeros too');
  t.match(await eventsOf(on, 'a'), [{ kind: 'adhoc_rule', family: 'specification', param: 'flight_number', value: args.flight_number }]);
});

t.test('spec_drift on search_direct_flight: date → departure_date from call 2', async (t) => {
  const canonical = (await call(await startServer(t), 'search_direct_flight', direct, 'off')).body;
  const on = await startServer(t, { hazardEnv: { HAZARD__SPEC_DRIFT__SEARCH_DIRECT_FLIGHT: 'on', HAZARD_SEED: '1' } });
  t.same((await call(on, 'search_direct_flight', direct)).body, canonical, 'call 1 answers with date');
  const refused = await call(on, 'search_direct_flight', direct);
  t.equal(refused.status, 400, 'call 2 with date refused');
  t.match(refused.body.detail, /unknown field 'date'/);
  const schema = (await listed(on, 'a')).find((e) => e.name === 'search_direct_flight')!.parameters as { properties: Obj; required: string[] };
  t.same(Object.keys(schema.properties), ['origin', 'destination', 'departure_date'], 'the re-read listing names departure_date');
  const { date, ...rest } = direct;
  const again = await call(on, 'search_direct_flight', { ...rest, departure_date: date });
  t.same([again.status, again.body], [200, canonical], 'the new name answers as before');
  t.same(await kindsIn(on, 'a'), ['spec_drift']);
});

t.test('lookalike: search_flights_v1, a deprecated partial twin of search_direct_flight', async (t) => {
  const off = await startServer(t);
  const canonical = (await call(off, 'search_direct_flight', direct, 'off')).body as Obj[];
  t.equal((await call(off, 'search_flights_v1', direct, 'off')).status, 404, 'off: the decoy does not exist');

  const on = await startServer(t, { hazardEnv: { HAZARD__LOOKALIKE__SEARCH_DIRECT_FLIGHT: 'on', HAZARD_SEED: '1' } });
  const names = (await listed(on, 'a')).map((e) => e.name);
  t.equal(names.filter((name) => name === 'search_flights_v1').length, 1, 'listed once, beside the canonical tool');
  t.ok(names.includes('search_direct_flight'), 'which is listed too');
  const decoy = await call(on, 'search_flights_v1', direct);
  t.equal(decoy.status, 200, 'the decoy answers');
  t.match(decoy.body, { deprecated: true, deprecation: /Use search_direct_flight/, last_synced_at: String });
  t.ok(
    decoy.body.flights.every((f: Obj) => !('prices' in f) && !('available_seats' in f)),
    'partial: no seats, no prices',
  );
  t.match(await eventsOf(on, 'a'), [{ kind: 'lookalike', decoy: 'search_flights_v1', canonical: 'search_direct_flight' }]);
  t.same((await call(on, 'search_direct_flight', direct)).body, canonical, 'recovery: the canonical tool answers in full');
});

t.test("ambiguous_doc on update_reservation_baggages: the counts' meaning is left out", async (t) => {
  const reservation = findReservation((r, u) => r.status == null && methodsOf(u, 'credit_card').length > 0 && r.flights.every((f) => f.date > '2024-05-16'));
  const payer = methodsOf(
    findUser((u) => u.user_id === reservation.user_id),
    'credit_card',
  )[0]!;
  const off = await startServer(t);
  const canonical = (await listed(off, 'off')).find((e) => e.name === 'update_reservation_baggages')!;
  t.match(JSON.stringify(canonical), /the new total, not the bags to add/, 'off: the listing says what the counts are');

  const on = await startServer(t, { hazardEnv: { HAZARD__AMBIGUOUS_DOC__UPDATE_RESERVATION_BAGGAGES: 'on', HAZARD_SEED: '1' } });
  const vague = (await listed(on, 'a')).find((e) => e.name === 'update_reservation_baggages')!;
  t.notMatch(JSON.stringify(vague), /new total|new number|bags to add/i, 'on: the meaning is gone');
  t.notMatch(JSON.stringify(vague), /"[a-z][^"]*\./, 'on: what is left reads as sentences');
  // Recovery: read the current counts, send the new totals.
  const current = (await call(on, 'get_reservation_details', { reservation_id: reservation.reservation_id })).body;
  const args = {
    reservation_id: reservation.reservation_id,
    total_baggages: current.total_baggages + 1,
    nonfree_baggages: current.nonfree_baggages + 1,
    payment_id: payer.id,
  };
  const updated = await call(on, 'update_reservation_baggages', args);
  t.same(
    [updated.status, updated.body.total_baggages, updated.body.nonfree_baggages],
    [200, args.total_baggages, args.nonfree_baggages],
    'totals sent: the totals are set',
  );
  t.same(updated.body.payment_history.at(-1), { payment_id: payer.id, amount: 50 }, 'one added non-free bag charged');
  t.match(await eventsOf(on, 'a'), [{ kind: 'ambiguous_doc', tool: 'update_reservation_baggages', recovery: /totals/ }]);
});

// ---- invocation ------------------------------------------------------------------------------

t.test('invocation_error on book_reservation: an idempotency key is required', async (t) => {
  const on = await startServer(t, { hazardEnv: { HAZARD__INVOCATION_ERROR__BOOK_RESERVATION: 'on', HAZARD_SEED: '1' } });
  const refused = await call(on, 'book_reservation', booking());
  t.same([refused.status, refused.body.code], [428, 'idempotency_key_required']);
  t.notOk((await on.state('a')).airline.reservations['HATHAT'], 'nothing booked');
  t.equal((await call(on, 'search_direct_flight', direct)).status, 200, 'other tools untouched');
  const booked = await call(on, 'book_reservation', { ...booking(), idempotency_key: 'b7e3c1d2-0000-4000-8000-000000000001' });
  t.same([booked.status, booked.body.reservation_id], [200, 'HATHAT'], 'with the key: booked');
  t.same(await kindsIn(on, 'a'), ['invocation_error']);
});

// ---- execution -------------------------------------------------------------------------------

for (const kind of ['transient_failure', 'transport_fault'] as const) {
  t.test(`${kind} on book_reservation and search_direct_flight: a retry gets through, a booking is made once`, async (t) => {
    const canonical = (await call(await startServer(t), 'search_direct_flight', direct, 'off')).body;
    const on = await startServer(t, {
      hazardEnv: { [`HAZARD__${kind.toUpperCase()}__BOOK_RESERVATION`]: 'on', [`HAZARD__${kind.toUpperCase()}__SEARCH_DIRECT_FLIGHT`]: 'on', HAZARD_SEED: '1' },
    });
    const search = await retried(on, 'search_direct_flight', direct, 'a');
    t.ok(search.statuses.length > 1, `search: failed first (${search.statuses.join(', ')})`);
    t.same(search.reply.body, canonical, 'the retried search answers as without hazards');
    const booked = await retried(on, 'book_reservation', booking(), 'a');
    t.ok(booked.statuses.length > 1, `booking: failed first (${booked.statuses.join(', ')})`);
    t.equal(booked.reply.body.reservation_id, 'HATHAT', 'booked');
    const reservations = (await on.state('a')).airline.reservations as Obj;
    t.ok(reservations['HATHAT'] && !reservations['HATHAU'], 'exactly one reservation: the failed attempts did not run');
    t.same([...new Set(await kindsIn(on, 'a'))], [kind], `only ${kind} fired`);
    t.equal((await call(on, 'get_user_details', { user_id: booker.user_id })).status, 200, 'other tools untouched');
  });
}

t.test('latency on book_reservation and search_direct_flight: a 504; the booking may have gone through, its key books it once', async (t) => {
  const canonical = (await call(await startServer(t), 'search_direct_flight', direct, 'off')).body;
  const env = { HAZARD__LATENCY__BOOK_RESERVATION: 'on', HAZARD__LATENCY__SEARCH_DIRECT_FLIGHT: 'on', HAZARD_SEED: '1' };
  const on = await startServer(t, { hazardEnv: env });
  const search = await retried(on, 'search_direct_flight', direct, 'a');
  t.same([search.statuses[0], search.reply.body], [504, canonical], 'search: a 504, then the retried search as without hazards');
  const keyed = { ...booking(), idempotency_key: 'trip-1' };
  const booked = await retried(on, 'book_reservation', keyed, 'a');
  t.equal(booked.statuses[0], 504, `booking: a 504 first (${booked.statuses.join(', ')})`);
  t.equal(booked.reply.body.reservation_id, 'HATHAT', 'booked');
  const reservations = (await on.state('a')).airline.reservations as Obj;
  t.ok(reservations['HATHAT'] && !reservations['HATHAU'], 'exactly one reservation, whether or not a timed-out attempt committed');
  const bookings = (await eventsOf(on, 'a')).filter((e) => e.tool === 'book_reservation');
  t.ok(
    bookings.length > 0 && bookings.every((e) => e.kind === 'latency' && typeof e['committed'] === 'boolean'),
    'the journal states whether each timed-out write committed',
  );
});

t.test('feature_limit on search_onestop_flight: later dates refused; searching each leg directly works', async (t) => {
  const off = await startServer(t);
  const canonical = (await call(off, 'search_onestop_flight', onestop, 'off')).body as [Obj, Obj][];
  t.ok(canonical.length > 0, `off: ${canonical.length} itineraries`);
  const near = { ...onestop, date: ONESTOP_HORIZON };

  const on = await startServer(t, { hazardEnv: { HAZARD__FEATURE_LIMIT__SEARCH_ONESTOP_FLIGHT: 'on', HAZARD_SEED: '1' } });
  t.same(
    (await call(on, 'search_onestop_flight', near)).body,
    (await call(off, 'search_onestop_flight', near, 'off')).body,
    'within the horizon: answers as without hazards',
  );
  const refused = await call(on, 'search_onestop_flight', onestop);
  t.same([refused.status, refused.body.code, refused.body.detail], [422, 'feature_limited', ONESTOP_REASON], 'after it: refused with the workaround');
  t.equal((await call(on, 'search_onestop_flight', onestop)).status, 422, 'a retry does not help');
  const rebuilt = await itinerariesByLegs(t, on, 'a', onestop);
  t.same(sorted(rebuilt), sorted(canonical), 'the workaround finds every itinerary');
  t.same([...new Set(await kindsIn(on, 'a'))], ['feature_limit']);
});

const boardStatus: Record<string, string[]> = {
  cancelled: ['Cancelled'],
  delayed: ['Delayed', 'Boarding'],
  'on time': ['On Time', 'Boarding'],
  flying: ['Departed'],
  landed: ['Departed'],
  available: ['Scheduled'],
};

t.test('outage on get_flight_status: 503 all session; the departures board answers instead', async (t) => {
  const off = await startServer(t);
  const on = await startServer(t, { hazardEnv: { HAZARD__OUTAGE__GET_FLIGHT_STATUS: 'on', HAZARD_SEED: '1' } });
  const picks = ['cancelled', 'delayed', 'landed', 'available'].map((status) =>
    findFlightDate(({ instance, date }) => instance.status === status && date >= '2024-05-14'),
  );
  for (const { flight, date } of picks) {
    const args = { flight_number: flight.flight_number, date };
    const status = (await call(off, 'get_flight_status', args, 'off')).body as string;
    const down = await call(on, 'get_flight_status', args);
    t.same([down.status, down.body.code], [503, 'service_unavailable'], `${flight.flight_number} ${date}: unavailable`);
    const board = await call(on, 'get_flight_board', { airport: flight.origin, date, direction: 'departures' });
    t.equal(board.status, 200, 'the fallback answers');
    const row = (board.body.flights as Obj[]).find((r) => r['flight_number'] === flight.flight_number)!;
    t.ok(boardStatus[status]!.includes(String(row['status'])), `the board says ${row['status']} for airline status ${status}`);
  }
  const events = await eventsOf(on, 'a');
  t.equal(events.length, picks.length, 'one event per refused call');
  t.match(events[0], { kind: 'outage', family: 'execution', fallback: 'get_flight_board', incident: /^INC-\d{5}$/ });
});

// ---- output ----------------------------------------------------------------------------------

const reservation = findReservation((r) => r.payment_history.length > 0 && r.flights.length > 1);

t.test('output_drift on get_reservation_details: amounts in cents from call 2', async (t) => {
  const canonical = (await call(await startServer(t), 'get_reservation_details', { reservation_id: reservation.reservation_id }, 'off')).body;
  const on = await startServer(t, { hazardEnv: { HAZARD__OUTPUT_DRIFT__GET_RESERVATION_DETAILS: 'on', HAZARD_SEED: '1' } });
  const args = { reservation_id: reservation.reservation_id };
  t.same((await call(on, 'get_reservation_details', args)).body, canonical, 'call 1: the canonical shape');
  const drifted = (await call(on, 'get_reservation_details', args)).body;
  t.match(drifted, { currency: 'USD', amount_unit: 'cents' });
  t.notOk('price' in drifted.flights[0], 'price is gone');
  // Recovery: read the new shape.
  const { currency, amount_unit, flights, payment_history, total_price_cents, ...rest } = drifted;
  const read = {
    ...rest,
    ...(total_price_cents === undefined ? {} : { total_price: total_price_cents / 100 }),
    flights: flights.map(({ price_cents, ...f }: Obj) => ({ ...f, price: (price_cents as number) / 100 })),
    payment_history: payment_history.map(({ amount_cents, ...p }: Obj) => ({ ...p, amount: (amount_cents as number) / 100 })),
  };
  t.same(read, canonical, 'the cents, read as such, are the canonical amounts');
  t.match(await eventsOf(on, 'a'), [{ kind: 'output_drift', call: 2, change: /cents/ }]);
});

t.test('sponsored on search_direct_flight: promoted flights break the query; dropping them leaves the results', async (t) => {
  const off = await startServer(t);
  const on = await startServer(t, { hazardEnv: { HAZARD__SPONSORED__SEARCH_DIRECT_FLIGHT: 'on', HAZARD_SEED: '1' } });
  let promoted = 0;
  for (const { flight, date } of [
    bookable,
    ...[...Array(4)].map((_, i) => findFlightDate(({ instance, date: d }) => isAvailable(instance) && d === `2024-05-2${i}`)),
  ]) {
    const query = { origin: flight.origin, destination: flight.destination, date };
    const canonical = (await call(off, 'search_direct_flight', query, 'off')).body as Obj[];
    t.ok(
      canonical.every((r) => r['sponsored'] === false && r['date'] === date),
      'off: every result has its date and is not sponsored',
    );
    const results = (await call(on, 'search_direct_flight', query)).body as Obj[];
    const ads = results.filter((r) => r['sponsored'] === true);
    promoted += ads.length;
    t.ok(ads.length > 0, `${JSON.stringify(query)}: promoted flights`);
    for (const ad of ads) {
      t.same(Object.keys(ad), Object.keys(canonical[0] ?? ad), 'an ad has the members of a result, in their order');
      t.ok(ad['destination'] !== query.destination || ad['date'] !== query.date, `${ad['flight_number']} breaks the query`);
    }
    t.same(
      results.filter((r) => r['sponsored'] !== true),
      canonical,
      'without them: the canonical results',
    );
  }
  const events = await eventsOf(on, 'a');
  t.equal(events.flatMap((e) => e['promoted'] as string[]).length, promoted, 'the journal names every promoted flight');
});

t.test('notice on get_user_details: advisory text, never instructions', async (t) => {
  const args = { user_id: booker.user_id };
  const canonical = (await call(await startServer(t), 'get_user_details', args, 'off')).body;
  t.type(canonical.notice, 'string', 'off: the account notice, a true one');
  const on = await startServer(t, { hazardEnv: { HAZARD__NOTICE__GET_USER_DETAILS: 'on', HAZARD_SEED: '1' } });
  const seen = new Set<string>();
  for (let i = 0; i < 8; i++) {
    const { notice, ...profile } = (await call(on, 'get_user_details', args)).body;
    t.type(notice, 'string');
    seen.add(notice);
    t.same({ ...profile, notice: canonical.notice }, canonical, 'the profile is unchanged');
    t.not(notice, canonical.notice, 'the notice is the banner');
  }
  const events = await eventsOf(on, 'a');
  t.ok(
    events.every((e) => e.kind === 'notice' && seen.has(String(e['text']))),
    'the journal records each notice',
  );
  t.ok(
    events.every((e) => e['misleading'] === true),
    'the misleading banner, on every call: a session sees it whatever its seed',
  );
  t.type((await call(on, 'get_user_details', args, 'other')).body.notice, 'string', 'on in every session');
  t.equal((await call(on, 'get_reservation_details', { reservation_id: reservation.reservation_id })).body.notice, undefined, 'other tools untouched');
});

t.test('truncated on search_onestop_flight: connections left out are found leg by leg', async (t) => {
  const route = { ...onestop, date: ONESTOP_HORIZON };
  const canonical = (await call(await startServer(t), 'search_onestop_flight', route, 'off')).body as [Obj, Obj][];
  const via = new Set(canonical.map(([first]) => first['destination']));
  t.ok(via.size >= 2, `${via.size} connections`);
  const on = await startServer(t, { hazardEnv: { HAZARD__TRUNCATED__SEARCH_ONESTOP_FLIGHT: 'on', HAZARD_SEED: '1' } });
  const cut = (await call(on, 'search_onestop_flight', route)).body;
  t.match(cut, { truncated: true, total: canonical.length, note: /search_direct_flight/ });
  t.ok(cut.itineraries.length < canonical.length, `${cut.itineraries.length} of ${canonical.length} shown`);
  t.same(
    cut.itineraries,
    canonical.filter(([first]) => !cut.omitted_connections.includes(first['destination'])),
    'the shown ones are canonical',
  );
  const rest = await itinerariesByLegs(t, on, 'a', route, cut.omitted_connections);
  t.same(sorted([...cut.itineraries, ...rest]), sorted(canonical), 'with the omitted connections searched leg by leg: every itinerary');
  t.match(await eventsOf(on, 'a'), [{ kind: 'truncated', kept: cut.itineraries.length, total: canonical.length }]);
});

t.test('redundant on get_reservation_details: a fare total beside the payments, after every usual field', async (t) => {
  const extras = findReservation((r) => r.insurance === 'yes' && r.payment_history.length > 0);
  const args = { reservation_id: extras.reservation_id };
  const canonical = (await call(await startServer(t), 'get_reservation_details', args, 'off')).body;
  t.notOk('total_price' in canonical, 'off: no total beside the payment history');
  const on = await startServer(t, { hazardEnv: { HAZARD__REDUNDANT__GET_RESERVATION_DETAILS: 'on', HAZARD_SEED: '1' } });
  const body = (await call(on, 'get_reservation_details', args)).body;
  t.notOk(
    ['_meta', '_debug', '_links', 'legal'].some((key) => key in body),
    'no bulk beside a look-alike',
  );
  t.same(Object.fromEntries(Object.keys(canonical).map((k) => [k, body[k]])), canonical, 'the usual fields hold the answer');
  const fares = extras.flights.reduce((sum, f) => sum + f.price, 0) * extras.passengers.length;
  const paid = extras.payment_history.reduce((sum, p) => sum + p.amount, 0);
  t.equal(body.total_price, fares, 'total_price: the fares for every passenger');
  t.same(Object.keys(body), [...Object.keys(canonical), 'total_price'], 'placed last, where clean answers that carry it have it: no usual field moves');
  t.ok(paid > body.total_price, `it leaves out the insurance: paid ${paid}, total_price ${body.total_price}`);
  t.match(await eventsOf(on, 'a'), [{ kind: 'redundant', shadowed: ['total_price'] }]);
  t.same(
    (await call(on, 'get_user_details', { user_id: booker.user_id })).body,
    (await call(await startServer(t), 'get_user_details', { user_id: booker.user_id }, 'off')).body,
    'other tools untouched',
  );
});

t.test("stale_data on track_baggage: the summary lags the bag's scans; the latest scan says where it is", async (t) => {
  const bag = Object.values(db.bags).find((b) => b.events.length >= 3 && b.events.at(-2)!.location !== b.events.at(-1)!.location)!;
  const canonical = (await call(await startServer(t), 'track_baggage', { tag: bag.tag }, 'off')).body;
  t.match(canonical.bags[0], { status: bag.events.at(-1)!.status, location: bag.events.at(-1)!.location }, 'off: the summary is the latest scan');
  const on = await startServer(t, { hazardEnv: { HAZARD__STALE_DATA__TRACK_BAGGAGE: 'on', HAZARD_SEED: '1' } });
  const cached = (await call(on, 'track_baggage', { tag: bag.tag })).body;
  const [before, last] = [bag.events.at(-2)!, bag.events.at(-1)!];
  t.match(cached, { cache: 'HIT', bags: [{ status: before.status, location: before.location }] }, "the summary is the scan before the last one's");
  t.ok(cached.as_of >= before.at && cached.as_of < last.at, `as_of ${cached.as_of}: between the two scans`);
  t.same(cached.bags[0].events, canonical.bags[0].events, 'the scan events are live: the latest one says where the bag is');
  t.match(await eventsOf(on, 'a'), [{ kind: 'stale_data', field: 'bags.0.status' }]);
  let fresh = cached;
  for (let i = 0; i < 4 && fresh.cache === 'HIT'; i++) fresh = (await call(on, 'track_baggage', { tag: bag.tag })).body;
  t.same({ ...fresh, as_of: canonical.as_of }, canonical, 'a later read is fresh');
  const several = findReservation((r) => Object.values(db.bags).filter((b) => b.reservation_id === r.reservation_id).length >= 2);
  const all = (await call(on, 'track_baggage', { reservation_id: several.reservation_id }, 'b')).body;
  t.ok(
    all.bags.every((b: Obj) => (b['events'] as Obj[]).some((e) => e['status'] === b['status'] && e['location'] === b['location'] && e['at'] <= all.as_of)),
    'every bag as of one earlier time',
  );
});

// ---- cross-source ----------------------------------------------------------------------------

t.test('conflict: the board disagrees with get_flight_status on one flight; the airline status decides', async (t) => {
  const off = await startServer(t);
  const on = await startServer(t, { hazardEnv: { HAZARD__CONFLICT__GET_FLIGHT_BOARD: 'on', HAZARD_SEED: '1' } });
  const airports = [...new Set(flights.map((f) => f.origin))].slice(0, 4);
  for (const [i, airport] of airports.entries()) {
    const args = { airport, date: '2024-05-15', direction: 'departures' };
    const session = `c${i}`;
    const canonical = (await call(off, 'get_flight_board', args, session)).body;
    const board = (await call(on, 'get_flight_board', args, session)).body;
    const event = (await eventsOf(on, session))[0]!;
    t.match(event, { kind: 'conflict', family: 'cross-source', authority: 'get_flight_status', field: /^flights\.\d+\.status$/ });
    const index = Number(/\d+/.exec(String(event['field']))![0]);
    const row = board.flights[index];
    t.equal(row.status, event['shown'], 'shown is what the board says');
    t.not(row.status, canonical.flights[index].status, `${airport} ${row.flight_number}: the board says ${row.status}`);
    t.same(
      board.flights.filter((_: Obj, k: number) => k !== index),
      canonical.flights.filter((_: Obj, k: number) => k !== index),
      'every other row as without hazards',
    );
    // Recovery: the authority.
    const status = (await call(on, 'get_flight_status', { flight_number: row.flight_number, date: '2024-05-15' }, session)).body as string;
    t.ok(boardStatus[status]!.includes(canonical.flights[index].status), `get_flight_status says ${status}, as the real board does`);
    t.notOk(boardStatus[status]!.includes(row.status), 'and not what the conflicting board says');
  }
});
