import * as fs from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { SessionPersistence } from '../../server/core/sessions/persistence.js';
import { journalFilePath } from '../../server/core/sessions/saved-sessions.js';
import { decodeSnapshot, encodeSnapshotHead, type SnapshotHead } from '../../server/core/sessions/snapshot-file.js';
import { SessionStore } from '../../server/core/sessions/store.js';
import { crashedData, DISK_ADDRESS } from '../helpers/data-dir.js';
import { findOrder } from '../helpers/retail.js';
import { fixtureBases, startServer } from '../helpers/server.js';

// A restart reads an index of DATA_DIR (snapshot names, the logs checked whole) and serves at once; each
// session is read back on first use, the others in the background, so start-up does not grow with the data.

/** A store and its persistence on `dir`. */
async function openOn(dir: string, journalLimit?: number) {
  const store = new SessionStore({ bases: await fixtureBases(), ttlMs: 60_000, maxSessions: 10, defaultSeed: '0', ...(journalLimit ? { journalLimit } : {}) });
  const saved = new SessionPersistence({ dir, intervalMs: 3_600_000 }, store, { info() {}, warn() {}, error() {} });
  return { store, saved, open: () => saved.open() };
}

const logs = (dir: string) => fs.readdirSync(dir).filter((name) => name.startsWith('wal-'));

async function until(test: () => boolean): Promise<void> {
  while (!test()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** What a session holds, comparable across restarts. */
const contents = (store: SessionStore, id: string) => {
  const session = store.get(id)!;
  return { seq: session.seq, journal: session.journalSince(0), diff: session.diff() };
};

t.test('start reads no snapshot; a session is read back on first use, alone; the others in the background', async (t) => {
  const { closed } = await crashedData(t);
  // A snapshot that cannot be read: the start goes on, since it reads none.
  fs.writeFileSync(join(closed, 'sessions', 'c.json'), 'not a snapshot');
  const { store, saved, open } = await openOn(closed);
  t.equal(await open(), 3, 'the saved sessions are counted');
  t.equal(store.unloaded, 3, 'all wait to be read back');
  t.notOk(store.peek('a'));
  t.equal(store.get('a')?.seq, 3, 'the first use of a reads it back whole');
  t.notOk(store.peek('b'), 'and a alone');
  t.equal(store.unloaded, 2);
  // The background reads one session per turn of the event loop: wait for both b and c, in whatever order.
  await until(() => store.peek('b') !== undefined && store.damaged.length > 0);
  t.equal(store.unloaded, 1, 'c stays unread');
  t.equal(store.peek('b')?.seq, 1, 'b is read back in the background');
  t.match(store.damaged, [{ session: 'c', where: /c\.json:1$/, problem: /checksum/ }], 'and c found damaged, held back');
  let refusal: unknown;
  try {
    store.get('c');
  } catch (error) {
    refusal = (error as { problem?: unknown }).problem;
  }
  t.match(refusal, { status: 503, code: 'session_damaged', detail: /c\.json:1/ }, 'its every use answers 503, naming it');
  await saved.close();
});

t.test('the logs read at start stay until their sessions are read back, then a checkpoint folds and removes them', async (t) => {
  const { crashed } = await crashedData(t);
  t.same(logs(crashed), ['wal-000001.jsonl']);
  const first = await openOn(crashed);
  await first.open();
  t.same(logs(crashed), ['wal-000001.jsonl', 'wal-000002.jsonl'], 'the old log is kept while its sessions are not back; logging goes on in a new one');
  const expected = { a: contents(first.store, 'a'), b: contents(first.store, 'b') };
  await until(() => !logs(crashed).includes('wal-000001.jsonl'));
  t.ok(fs.existsSync(join(crashed, 'sessions', 'a.json')) && fs.existsSync(join(crashed, 'sessions', 'b.json')), 'once back, they are written as snapshots');
  await first.saved.close();

  const second = await openOn(crashed);
  await second.open();
  t.same({ a: contents(second.store, 'a'), b: contents(second.store, 'b') }, expected, 'and read back the same');
  await second.saved.close();
});

t.test('a stop before the background is done writes the sessions with log records, and leaves the others as they are', async (t) => {
  const { crashed, closed } = await crashedData(t);
  // Beside a and b (in the log only), a session saved in a snapshot alone: a's, under another id.
  const { head } = decodeSnapshot(fs.readFileSync(join(closed, 'sessions', 'a.json'), 'utf8'), false) as { head: SnapshotHead };
  const other = encodeSnapshotHead({ ...head, id: 'other', options: { ...head.options, id: 'other' } });
  fs.writeFileSync(join(crashed, 'sessions', 'other.json'), other);
  fs.cpSync(journalFilePath(closed, 'a', head.journal.generation), journalFilePath(crashed, 'other', head.journal.generation));
  const { store, saved, open } = await openOn(crashed);
  t.equal(await open(), 3);
  const expected = { a: contents(store, 'a'), b: contents(store, 'b') };
  await saved.close();
  t.same(logs(crashed), [], 'no log is left');
  t.ok(fs.existsSync(join(crashed, 'sessions', 'a.json')) && fs.existsSync(join(crashed, 'sessions', 'b.json')), 'the logged sessions are in snapshots');
  t.equal(fs.readFileSync(join(crashed, 'sessions', 'other.json'), 'utf8'), other, 'the one never read back is left as it was');
  const again = await openOn(crashed);
  await again.open();
  t.same({ a: contents(again.store, 'a'), b: contents(again.store, 'b') }, expected, 'and all come back the same');
  t.equal(again.store.get('other')?.seq, 3);
  await again.saved.close();
});

t.test('calls on the default session, in the log alone (a crash before any checkpoint), come back', async (t) => {
  const root = t.testdir();
  const live = join(root, 'live');
  const closers: (() => unknown)[] = [];
  const server = await startServer({ teardown: (close) => closers.push(close) }, { persistence: { dir: live, intervalMs: 3_600_000 } });
  const order = findOrder((o) => o.status === 'pending');
  t.equal((await server.call('retail', 'modify_pending_order_address', { order_id: order.order_id, ...DISK_ADDRESS })).status, 200);
  t.equal((await server.call('retail', 'get_order_details', { order_id: order.order_id })).status, 200);
  const crashed = join(root, 'crashed');
  fs.cpSync(live, crashed, { recursive: true });
  for (const close of closers.reverse()) await close();
  t.same(fs.readdirSync(join(crashed, 'sessions')), [], 'no snapshot: the log alone holds them');

  const { store, saved, open } = await openOn(crashed);
  await open();
  t.equal(store.get('default')?.seq, 2, 'the default session is read back at start');
  const orders = store.get('default')!.domain('retail').materialize()['orders'] as Record<string, { address: unknown }>;
  t.same(orders[order.order_id]?.address, DISK_ADDRESS, 'with its write');
  await saved.close();
});

/** Journals `count` read calls in a session, as the call pipeline does. */
function reads(store: SessionStore, id: string, count: number): void {
  const session = store.get(id)!;
  for (let i = 0; i < count; i++) {
    const seq = session.nextSeq;
    const entry = { seq, at: 0, domain: 'retail', tool: 'calculate', call: seq, args: { expression: `${seq}+0` } };
    session.clock.tick();
    store.recordCall(session, { ...entry, status: 200, result: String(seq), problem: undefined, changes: [], hazards: [], duration_ms: 0 }, 300);
  }
}

t.test('journal files: appended at each checkpoint, cut back to what the snapshot counts, written anew after a reset or once twice the journal', async (t) => {
  const dir = t.testdir();
  const file = (generation: number) => journalFilePath(dir, 'j', generation);
  const lineCount = (generation: number) => fs.readFileSync(file(generation), 'utf8').split('\n').filter(Boolean).length;
  const seqs = (store: SessionStore) =>
    store
      .get('j')!
      .journalSince(0)
      .map((entry) => entry.seq);

  const first = await openOn(dir);
  await first.open();
  first.store.create({ id: 'j' });
  reads(first.store, 'j', 3);
  await first.store.persisted();
  await first.saved.checkpoint();
  t.equal(lineCount(1), 3, 'the first checkpoint writes the journal whole');
  reads(first.store, 'j', 2);
  await first.store.persisted();
  const before = fs.readFileSync(file(1), 'utf8');
  await first.saved.checkpoint();
  t.equal(fs.readFileSync(file(1), 'utf8').slice(0, before.length), before, 'the next appends to it');
  t.equal(lineCount(1), 5);
  await first.saved.close();

  // An append the crash interrupted: bytes past what the snapshot counts.
  fs.appendFileSync(file(1), 'deadbeef {"seq":99');
  const second = await openOn(dir);
  await second.open();
  t.same(seqs(second.store), [1, 2, 3, 4, 5], 'read back, the bytes past the count are left out');
  reads(second.store, 'j', 1);
  await second.store.persisted();
  await second.saved.checkpoint();
  t.equal(lineCount(1), 6, 'and cut before the next append');
  t.notMatch(fs.readFileSync(file(1), 'utf8'), /deadbeef/);

  second.store.reset('j');
  reads(second.store, 'j', 2);
  await second.store.persisted();
  await second.saved.checkpoint();
  t.equal(lineCount(2), 2, 'after a reset, a new generation');
  t.notOk(fs.existsSync(file(1)), 'the old one removed');
  await second.saved.close();

  // Once the file holds far more lines than the journal keeps, it is written anew.
  const third = await openOn(dir, 10);
  await third.open();
  for (let round = 0; round < 110; round++) {
    reads(third.store, 'j', 10);
    await third.store.persisted();
    await third.saved.checkpoint();
  }
  const generations = fs.readdirSync(join(dir, 'sessions')).filter((name) => /^j\.\d+\.journal$/.test(name));
  t.equal(generations.length, 1, 'one journal file');
  const generation = Number(generations[0]!.split('.')[1]);
  t.ok(generation > 2 && lineCount(generation) < 2 * 10 + 1024, `written anew (generation ${generation}, ${lineCount(generation)} lines)`);
  const expected = seqs(third.store);
  t.equal(expected.length, 10);
  await third.saved.close();
  const fourth = await openOn(dir, 10);
  await fourth.open();
  t.same(seqs(fourth.store), expected, 'and read back the same');
  await fourth.saved.close();
});
