import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { startServer } from '../helpers/server.js';
import { findOrder } from '../helpers/retail.js';

const pending = findOrder((o) => o.status === 'pending');
const address = { address1: '9 Disk Lane', address2: '', city: 'Reno', state: 'NV', country: 'USA', zip: '89501' };

/** Runs a server on `dir`, lets `work` use it, closes it (a graceful stop). */
async function withServer<T>(dir: string, work: (server: Awaited<ReturnType<typeof startServer>>) => Promise<T>): Promise<T> {
  const closers: (() => unknown)[] = [];
  const server = await startServer({ teardown: (fn) => closers.push(fn) }, { persistence: { dir, intervalMs: 3_600_000 } });
  try {
    return await work(server);
  } finally {
    for (const close of closers.reverse()) await close();
  }
}

t.test('sessions survive a restart: data, journal, clock and call counters', async (t) => {
  const dir = t.testdir();
  const before = await withServer(dir, async (server) => {
    const id = await server.newSession({ id: 'kept', seed: 3, clock: { start: '2024-01-01T00:00:00Z', step_ms: 5000 } });
    await server.call('retail', 'modify_pending_order_address', { order_id: pending.order_id, ...address }, id);
    await server.call('retail', 'get_order_details', { order_id: pending.order_id }, id);
    await server.call('retail', 'calculate', { expression: '1/0' }, id);
    await server.newSession({ id: 'gone' });
    await server.request('DELETE', '/sessions/gone');
    return { journal: (await server.request('GET', `/sessions/${id}/journal`)).body, state: await server.state(id) };
  });
  t.ok(readdirSync(join(dir, 'sessions')).includes('kept.json'), 'a snapshot per session');

  await withServer(dir, async (server) => {
    t.same((await server.request('GET', '/sessions/kept/journal')).body, before.journal, 'the journal is back');
    t.same(await server.state('kept'), before.state, 'the data is back');
    t.equal((await server.request('GET', '/sessions/gone')).status, 404, 'deleted sessions stay deleted');
    const next = await server.call('retail', 'get_order_details', { order_id: pending.order_id }, 'kept');
    const journal = (await server.request('GET', '/sessions/kept/journal')).body;
    t.match(journal.at(-1), { seq: 4, call: 2, at: '2024-01-01T00:00:15.000Z' }, 'numbering and clock go on where they stopped');
    t.same(next.body.address, address);
  });
});

t.test('a log without snapshots (a crash before the first checkpoint) is replayed', async (t) => {
  const dir = t.testdir({ sessions: {} });
  const entry = (seq: number) => ({
    seq, at: '2024-05-15T20:00:00.000Z', domain: 'retail', tool: 'modify_pending_order_address', call: seq,
    args: {}, status: 200, result: {}, hazards: [], duration_ms: 1,
    changes: [{ table: 'orders', id: pending.order_id, value: { ...pending, address: { ...address, address2: `#${seq}` } } }],
  });
  const lines = [
    { t: 'create', s: 'crashed', v: 1, options: { id: 'crashed' } },
    { t: 'call', s: 'crashed', v: 2, entry: entry(1) },
    { t: 'call', s: 'crashed', v: 3, entry: entry(2) },
  ];
  writeFileSync(join(dir, 'wal-000001.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  await withServer(dir, async (server) => {
    t.equal((await server.state('crashed')).retail.orders[pending.order_id].address.address2, '#2');
    t.equal((await server.request('GET', '/sessions/crashed/journal')).body.length, 2);
  });
  t.notOk(readdirSync(dir).includes('wal-000001.jsonl'), 'the replayed log is folded into a snapshot and removed');
  const snapshot = JSON.parse(readFileSync(join(dir, 'sessions', 'crashed.json'), 'utf8'));
  t.equal(snapshot.version, 3);
});

t.test('log records a snapshot already holds are not applied twice', async (t) => {
  const dir = t.testdir();
  await withServer(dir, async (server) => {
    await server.call('retail', 'modify_pending_order_address', { order_id: pending.order_id, ...address }, 'twice');
  });
  const snapshot = JSON.parse(readFileSync(join(dir, 'sessions', 'twice.json'), 'utf8'));
  // The same call, still in a log next to the snapshot that holds it (a crash between the two writes):
  writeFileSync(join(dir, 'wal-000009.jsonl'), JSON.stringify({ t: 'call', s: 'twice', v: snapshot.version, entry: snapshot.journal[0] }) + '\n');
  await withServer(dir, async (server) => {
    t.equal((await server.request('GET', '/sessions/twice/journal')).body.length, 1);
  });
});
