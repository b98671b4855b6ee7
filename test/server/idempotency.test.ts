import t from 'tap';
import { domains } from '../../domains/index.js';
import { fingerprint, IDEMPOTENCY_KEY_TTL_MS, IDEMPOTENCY_KEYS_KEPT, IdempotencyKeys } from '../../server/core/sessions/idempotency.js';
import type { JournalEntry } from '../../server/core/sessions/journal.js';
import { aBooking } from '../helpers/airline.js';
import { payableCart } from '../helpers/hazards.js';
import { startServer } from '../helpers/server.js';

const { args: booking } = aBooking();

const inserted = async (server: Awaited<ReturnType<typeof startServer>>, session: string, table: string) =>
  ((await server.request('GET', `/sessions/${session}/diff`)).body.airline as { table: string; op: string }[]).filter(
    (d) => d.table === table && d.op === 'insert',
  ).length;

t.test('every writing tool declares idempotency_key in its schema; no reading tool does', async (t) => {
  const server = await startServer(t);
  for (const domain of domains) {
    const listing = (await server.request('GET', `/${domain.name}/tools?format=openai`)).body as {
      function: { name: string; parameters: { properties: object } };
    }[];
    for (const tool of domain.tools) {
      const listed = listing.find((entry) => entry.function.name === tool.name)!;
      t.equal('idempotency_key' in listed.function.parameters.properties, tool.mutates, `${domain.name}/${tool.name}`);
    }
  }
});

t.test('the same key and arguments: the first result again, nothing written twice', async (t) => {
  const server = await startServer(t);
  const args = { ...booking(), idempotency_key: 'k-1' };
  const first = await server.call('airline', 'book_reservation', args, 's');
  const again = await server.call('airline', 'book_reservation', { ...args, payment_methods: [...args.payment_methods] }, 's');
  t.equal(first.status, 200);
  t.same(again.body, first.body, 'the same answer');
  t.equal(await inserted(server, 's', 'reservations'), 1, 'one reservation');
  const journal = await server.journal<JournalEntry>('s');
  t.match(journal, [
    { idempotency: { key: 'k-1' }, changes: Array },
    { idempotency: { key: 'k-1', replayed: 1 }, changes: [] },
  ]);
  t.notOk('replayed' in journal[0]!.idempotency!, 'the first call is no replay');

  const other = await server.call('airline', 'book_reservation', { ...booking(), idempotency_key: 'k-2' }, 's');
  t.equal(other.status, 200, 'another key is another operation');
  t.equal(await inserted(server, 's', 'reservations'), 2);
  t.equal((await server.call('airline', 'book_reservation', args, 'elsewhere')).status, 200, 'keys belong to their session');
  t.equal(await inserted(server, 'elsewhere', 'reservations'), 1);
});

t.test('the same key with other arguments is refused, and changes nothing', async (t) => {
  const server = await startServer(t);
  await server.call('airline', 'book_reservation', { ...booking(), idempotency_key: 'k' }, 's');
  const reused = await server.call('airline', 'book_reservation', { ...booking(), insurance: 'yes', idempotency_key: 'k' }, 's');
  t.match(reused, { status: 422, body: { code: 'idempotency_key_reused', field: 'idempotency_key', detail: /already used with other arguments/ } });
  t.equal(await inserted(server, 's', 'reservations'), 1);
  t.same((await server.journal<JournalEntry>('s')).at(-1)!.changes, []);
});

t.test('arguments left to their defaults are the same arguments: the retry is replayed', async (t) => {
  const server = await startServer(t);
  const { cart } = payableCart();
  // add_to_cart's quantity defaults to 1; the key is compared with the arguments as sent.
  const args = { user_id: cart.user_id, item_id: cart.items[0]!.item_id, idempotency_key: 'add-1' };
  const first = await server.call('retail', 'add_to_cart', args, 's');
  const again = await server.call('retail', 'add_to_cart', args, 's');
  t.equal(first.status, 200);
  t.equal(again.status, 200, `replayed, not refused (${again.text.slice(0, 120)})`);
  t.same(again.body, first.body, 'the same answer');
  t.match((await server.journal<JournalEntry>('s')).at(-1), { idempotency: { key: 'add-1', replayed: 1 }, changes: [] });
});

t.test('a failed write does not use up its key; a retry runs it', async (t) => {
  const server = await startServer(t);
  const { checkoutArgs } = payableCart();
  const bad = await server.call('retail', 'checkout', { ...checkoutArgs, payment_method_id: 'credit_card_0000000', idempotency_key: 'c' }, 's');
  t.equal(bad.status, 404);
  t.equal(
    (await server.call('retail', 'checkout', { ...checkoutArgs, idempotency_key: 'c' }, 's')).status,
    200,
    'the key of a failed call is free: other arguments run',
  );
});

t.test('keys survive a restart (DATA_DIR)', async (t) => {
  const dir = t.testdir();
  const args = { ...booking(), idempotency_key: 'kept' };
  const closers: (() => unknown)[] = [];
  const first = await startServer({ teardown: (fn) => closers.push(fn) }, { persistence: { dir, intervalMs: 3_600_000, durability: 'process' } });
  const answer = (await first.call('airline', 'book_reservation', args, 'p')).body;
  for (const close of closers.reverse()) await close();
  const second = await startServer(t, { persistence: { dir, intervalMs: 3_600_000, durability: 'process' } });
  t.same((await second.call('airline', 'book_reservation', args, 'p')).body, answer, 'replayed after the restart');
  t.equal(await inserted(second, 'p', 'reservations'), 1);
});

/** A journaled write under key `k{seq}` (or `key`), at session time `at`. */
const written = (seq: number, { at = seq, tool = 'w', key = `k${seq}` }: { at?: number; tool?: string; key?: string } = {}): JournalEntry => ({
  seq,
  at,
  domain: 'd',
  tool,
  call: seq,
  args: { n: seq, idempotency_key: key },
  status: 200,
  result: seq,
  problem: undefined,
  changes: [],
  hazards: [],
  duration_ms: 0,
  idempotency: { key },
});

t.test('a key belongs to the session: another tool sending it is refused with 422, and writes nothing', async (t) => {
  const server = await startServer(t);
  const { cart } = payableCart();
  const add = { user_id: cart.user_id, item_id: cart.items[0]!.item_id, idempotency_key: 'shared' };
  t.equal((await server.call('retail', 'add_to_cart', add, 's')).status, 200);
  const other = await server.call('airline', 'book_reservation', { ...booking(), idempotency_key: 'shared' }, 's');
  t.match(other, {
    status: 422,
    body: { code: 'idempotency_key_reused', field: 'idempotency_key', detail: /'shared' was already used for another request \(call 1\)/ },
  });
  t.equal(await inserted(server, 's', 'reservations'), 0, 'no reservation');
  t.equal((await server.call('retail', 'add_to_cart', add, 's')).status, 200, 'the tool that used it still replays it');
  t.match((await server.journal<JournalEntry>('s')).at(-1), { idempotency: { key: 'shared', replayed: 1 }, changes: [] });

  const keys = new IdempotencyKeys();
  keys.remember(written(1, { key: 'x' }));
  t.match(keys.get('x', 1), { domain: 'd', tool: 'w', seq: 1 }, 'one key per session, whatever the tool');
  keys.remember(written(2, { tool: 'v', key: 'x' }));
  t.match(keys.get('x', 2), { tool: 'v', seq: 2 }, 'a write under a key replaces what the key named');
  t.equal(keys.save().length, 1);
});

t.test('a key is kept for a day of session time, then the same call is a new operation', async (t) => {
  const server = await startServer(t);
  const session = await server.newSession({ clock: { step_ms: 6 * 3_600_000 } });
  const args = { ...booking(), idempotency_key: 'day' };
  const first = await server.call('airline', 'book_reservation', args, session);
  for (let i = 0; i < 2; i++) await server.call('airline', 'list_all_airports', {}, session);
  // 18 hours later: kept.
  t.same((await server.call('airline', 'book_reservation', args, session)).body, first.body, 'replayed within the day');
  t.equal(await inserted(server, session, 'reservations'), 1);
  // 24 hours after the first: forgotten; the call writes again.
  const later = await server.call('airline', 'book_reservation', args, session);
  t.equal(later.status, 200);
  t.equal(await inserted(server, session, 'reservations'), 2, 'a new reservation');
  t.match((await server.journal<JournalEntry>(session)).at(-1), { idempotency: { key: 'day' }, changes: Array });
  t.notOk('replayed' in (await server.journal<JournalEntry>(session)).at(-1)!.idempotency!);

  const keys = new IdempotencyKeys();
  keys.remember(written(1, { at: 0 }));
  t.ok(keys.get('k1', IDEMPOTENCY_KEY_TTL_MS - 1), 'kept until the day is over');
  t.equal(keys.get('k1', IDEMPOTENCY_KEY_TTL_MS), undefined, 'gone at a day');
  keys.remember(written(2, { at: IDEMPOTENCY_KEY_TTL_MS }));
  t.same(
    keys.save().map(([id]) => id),
    ['k2'],
    'a later write drops the expired keys',
  );
});

t.test('a snapshot from before keys belonged to the session is read back', async (t) => {
  const keys = new IdempotencyKeys();
  const legacyFingerprint = JSON.stringify({ n: 1 });
  keys.load([['d/w/a/b', { fingerprint: legacyFingerprint, result: 'r', seq: 4 }]], 1000);
  t.match(keys.get('a/b', 1000), { domain: 'd', tool: 'w', seq: 4, result: 'r', at: 1000, fingerprint: fingerprint({ n: 1, idempotency_key: 'a/b' }) });
  t.equal(keys.get('a/b', 1000 + IDEMPOTENCY_KEY_TTL_MS), undefined, 'kept a day from the restart');
  const again = new IdempotencyKeys();
  again.load(keys.save(), 0);
  t.same(again.save(), keys.save(), 'the current format round-trips');
});

t.test('a session keeps at most IDEMPOTENCY_KEYS_KEPT keys, the oldest forgotten first', async (t) => {
  const keys = new IdempotencyKeys();
  for (let seq = 1; seq <= IDEMPOTENCY_KEYS_KEPT + 1; seq++) keys.remember(written(seq));
  const now = IDEMPOTENCY_KEYS_KEPT + 1;
  t.equal(keys.get('k1', now), undefined, 'the oldest is forgotten');
  t.match(keys.get(`k${IDEMPOTENCY_KEYS_KEPT + 1}`, now), { result: IDEMPOTENCY_KEYS_KEPT + 1, seq: IDEMPOTENCY_KEYS_KEPT + 1 });
  t.equal(keys.save().length, IDEMPOTENCY_KEYS_KEPT);
  t.equal(
    fingerprint({ b: [1, { d: 1, c: 2 }], a: 1, idempotency_key: 'x' }),
    fingerprint({ a: 1, b: [1, { c: 2, d: 1 }] }),
    'members in any order, without the key',
  );
  t.not(fingerprint({ a: 1 }), fingerprint({ a: 2 }), 'other arguments, another fingerprint');
  t.ok(fingerprint({ a: 'x'.repeat(100_000) }).length <= 64, 'a digest: a kept key costs the same whatever its arguments');
  t.equal(keys.get('__proto__', now), undefined, 'an inherited name is no key');

  // Two writes taken back, newest first (a log write that failed): the keys they pushed out come back, in order.
  const last = IDEMPOTENCY_KEYS_KEPT + 1;
  keys.remember(written(last + 1));
  keys.forget(written(last + 1));
  keys.forget(written(last));
  t.match(keys.get('k1', now), { seq: 1 }, 'the key a taken-back write pushed out is remembered again');
  t.match(keys.get('k2', now), { seq: 2 });
  t.equal(keys.get(`k${last}`, now), undefined, 'and its own is forgotten');
  t.same(
    keys.save().map(([id]) => id),
    Array.from({ length: IDEMPOTENCY_KEYS_KEPT }, (_, i) => `k${i + 1}`),
    'as the oldest, where they were',
  );
});
