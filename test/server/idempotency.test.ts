import t from 'tap';
import { domains } from '../../domains/index.js';
import { fingerprint, IDEMPOTENCY_KEYS_KEPT, IdempotencyKeys } from '../../server/sessions/idempotency.js';
import type { JournalEntry } from '../../server/sessions/journal.js';
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

t.test('a session remembers its latest keys only', async (t) => {
  const keys = new IdempotencyKeys();
  const entry = (seq: number): JournalEntry => ({
    seq,
    at: 0,
    domain: 'd',
    tool: 'w',
    call: seq,
    args: { n: seq, idempotency_key: `k${seq}` },
    status: 200,
    result: seq,
    problem: undefined,
    changes: [],
    hazards: [],
    duration_ms: 0,
    idempotency: { key: `k${seq}` },
  });
  for (let seq = 1; seq <= IDEMPOTENCY_KEYS_KEPT + 1; seq++) keys.remember(entry(seq));
  t.equal(keys.get('d', 'w', 'k1'), undefined, 'the oldest is forgotten');
  t.match(keys.get('d', 'w', `k${IDEMPOTENCY_KEYS_KEPT + 1}`), { result: IDEMPOTENCY_KEYS_KEPT + 1, seq: IDEMPOTENCY_KEYS_KEPT + 1 });
  t.equal(keys.save().length, IDEMPOTENCY_KEYS_KEPT);
  t.equal(
    fingerprint({ b: [1, { d: 1, c: 2 }], a: 1, idempotency_key: 'x' }),
    fingerprint({ a: 1, b: [1, { c: 2, d: 1 }] }),
    'members in any order, without the key',
  );
  t.equal(keys.get('d', 'w', '__proto__'), undefined, 'an inherited name is no key');

  // Two writes taken back, newest first (a log write that failed): the keys they pushed out come back, in order.
  const last = IDEMPOTENCY_KEYS_KEPT + 1;
  keys.remember(entry(last + 1));
  keys.forget(entry(last + 1));
  keys.forget(entry(last));
  t.match(keys.get('d', 'w', 'k1'), { seq: 1 }, 'the key a taken-back write pushed out is remembered again');
  t.match(keys.get('d', 'w', 'k2'), { seq: 2 });
  t.equal(keys.get('d', 'w', `k${last}`), undefined, 'and its own is forgotten');
  t.same(
    keys.save().map(([id]) => id),
    Array.from({ length: IDEMPOTENCY_KEYS_KEPT }, (_, i) => `d/w/k${i + 1}`),
    'as the oldest, where they were',
  );
});
