import t from 'tap';
import { unknownOutcome } from '../../hazards/kinds/unknown_outcome.js';
import { aBooking } from '../helpers/airline.js';
import { type JournalEntry, payableCart, retailDiff } from '../helpers/hazards.js';
import { findOrder } from '../helpers/retail.js';
import { startServer, type TestServer } from '../helpers/server.js';

const { args: booking } = aBooking();
const ON = { HAZARD__UNKNOWN_OUTCOME__BOOK_RESERVATION: 'on', HAZARD_SEED: '1' };

const reservationsMade = async (server: TestServer, session: string) =>
  ((await server.request('GET', `/sessions/${session}/diff`)).body.airline as { table: string; op: string; id: string }[])
    .filter((d) => d.table === 'reservations' && d.op === 'insert')
    .map((d) => d.id);

t.test('a write commits, then the answer is lost: the journal says it committed', async (t) => {
  const server = await startServer(t, { hazardEnv: ON });
  const reply = await server.attempt('airline', 'book_reservation', booking(), 'u');
  t.ok([0, 502, 504].includes(reply.status), `no answer the agent can use (${reply.status})`);
  const [entry] = await server.journal<JournalEntry>('u');
  t.match(entry!.hazards, [{ kind: 'unknown_outcome', family: 'execution', committed: true, retryable: true, recovery: unknownOutcome.recovery }]);
  t.ok(entry!.changes.length > 0, 'the journal has the changes it made');
  t.match(entry!.result, { reservation_id: String }, 'and the result the server produced');
  t.same(await reservationsMade(server, 'u'), [(entry!.result as { reservation_id: string }).reservation_id], 'the booking exists');
});

t.test('bite: a blind retry books twice; recovery: the same idempotency key replays the first booking', async (t) => {
  const server = await startServer(t, { hazardEnv: ON });
  let calls = 1;
  let reply = await server.attempt('airline', 'book_reservation', booking(), 'blind');
  for (; reply.status !== 200; calls++) reply = await server.attempt('airline', 'book_reservation', booking(), 'blind');
  t.ok(calls >= 2, `retried until answered (${calls} calls)`);
  t.equal((await reservationsMade(server, 'blind')).length, calls, 'every call booked: one reservation per call for one request');

  const keyed = { ...booking(), idempotency_key: 'trip-2024-05-20' };
  const first = await server.attempt('airline', 'book_reservation', keyed, 'keyed');
  t.not(first.status, 200);
  let retry = await server.attempt('airline', 'book_reservation', keyed, 'keyed');
  while (retry.status !== 200) retry = await server.attempt('airline', 'book_reservation', keyed, 'keyed');
  const made = await reservationsMade(server, 'keyed');
  t.same(made, [retry.body.reservation_id], 'one reservation, and the retry answers it');
  const journal = await server.journal<JournalEntry>('keyed');
  t.match(
    journal.at(-1),
    { status: 200, changes: [], idempotency: { key: 'trip-2024-05-20', replayed: 1 } },
    'the retry wrote nothing and says which call it replayed',
  );

  // Reading before retrying is the other recovery: the reservation is on the user's profile.
  const profile = (await server.call('airline', 'get_user_details', { user_id: booking().user_id }, 'keyed')).body;
  t.ok(profile.reservations.includes(made[0]), 'the booking shows on the profile');
});

t.test('the answer is lost in the ways real gateways lose it; each is seeded', async (t) => {
  const server = await startServer(t, { hazardEnv: { ...ON, HAZARD_MAX_CONSECUTIVE: '99' } });
  const modes = new Set<string>();
  for (let i = 0; i < 12; i++) {
    const reply = await server.attempt('airline', 'book_reservation', booking(), `m${i}`);
    const mode = (await server.journal<JournalEntry>(`m${i}`))[0]!.hazards[0]!['mode'] as string;
    modes.add(mode);
    if (mode === 'gateway_timeout') t.equal(reply.status, 504);
    else if (mode === 'bad_gateway') t.match(reply, { status: 502, text: /502 Bad Gateway/ });
    else t.equal(reply.status, 0, 'reset: no HTTP answer');
  }
  t.same([...modes].sort(), ['bad_gateway', 'gateway_timeout', 'reset']);
  const again = await startServer(t, { hazardEnv: { ...ON, HAZARD_MAX_CONSECUTIVE: '99' } });
  await again.attempt('airline', 'book_reservation', booking(), 'm3');
  t.same(
    (await again.journal<JournalEntry>('m3'))[0]!.hazards,
    (await server.journal<JournalEntry>('m3'))[0]!.hazards,
    'the same seed and session: the same mode',
  );
});

t.test('writes only: assigned to writes, refused on a read, generic on any write', async (t) => {
  const server = await startServer(t, { hazardEnv: { HAZARDS: 'unknown_outcome' } });
  t.not((await server.attempt('retail', 'checkout', payableCart().checkoutArgs, 'w')).status, 200, 'checkout is assigned');
  const order = findOrder((o) => o.status === 'pending');
  t.equal((await server.call('retail', 'get_order_details', { order_id: order.order_id }, 'w')).status, 200, 'reads are untouched');
  t.ok(
    (await retailDiff(server, 'w')).some((d) => d.table === 'orders' && d.op === 'insert'),
    'the checkout did commit',
  );
  const refused = await server.request('POST', '/sessions', { hazards: { tools: { get_order_details: { unknown_outcome: 'on' } } } });
  t.equal(refused.status, 400, 'a read cannot lose a write');
  const generic = await server.request('POST', '/sessions', { id: 'g', hazards: { tools: { modify_user_address: { unknown_outcome: 'on' } } } });
  t.equal(generic.status, 201, 'any write can');
});

t.test('hints mode: the lost answer carries the hint where it can', async (t) => {
  const server = await startServer(t, { hazardEnv: { ...ON, HAZARD_HINTS: '1', HAZARD_MAX_CONSECUTIVE: '99' } });
  const hint = unknownOutcome.hint({ kind: 'unknown_outcome', tool: 'book_reservation' });
  for (let i = 0; i < 8; i++) {
    const reply = await server.attempt('airline', 'book_reservation', booking(), `h${i}`);
    if (reply.status === 0) continue;
    t.ok(reply.text.includes(hint) || reply.headers['x-hint'] === hint, `status ${reply.status}: hinted`);
  }
});
