import { pbkdf2 } from 'node:crypto';
import { readdirSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import type { Durability } from '../../server/core/sessions/log-file.js';
import { PersistenceError, SessionPersistence } from '../../server/core/sessions/persistence.js';
import { SessionStore } from '../../server/core/sessions/store.js';
import { runServerToExit } from '../helpers/process.js';
import { fixtureBases, startServer } from '../helpers/server.js';
import { findOrder } from '../helpers/retail.js';
import { readLog, readSnapshot, writeLog } from '../helpers/data-dir.js';

const pending = findOrder((o) => o.status === 'pending');
const address = { address1: '9 Disk Lane', address2: '', city: 'Reno', state: 'NV', country: 'USA', zip: '89501' };

/** Runs a server on `dir`, lets `work` use it, closes it (a graceful stop). */
async function withServer<T>(
  dir: string,
  work: (server: Awaited<ReturnType<typeof startServer>>) => Promise<T>,
  durability: Durability = 'process',
  checkpointBytes?: number,
): Promise<T> {
  const closers: (() => unknown)[] = [];
  const persistence = { dir, intervalMs: 3_600_000, durability, ...(checkpointBytes !== undefined ? { checkpointBytes } : {}) };
  const server = await startServer({ teardown: (fn) => closers.push(fn) }, { persistence });
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
    seq,
    at: '2024-05-15T20:00:00.000Z',
    domain: 'retail',
    tool: 'modify_pending_order_address',
    call: seq,
    args: {},
    status: 200,
    result: {},
    hazards: [],
    duration_ms: 1,
    changes: [{ table: 'orders', id: pending.order_id, value: { ...pending, address: { ...address, address2: `#${seq}` } } }],
  });
  const lines = [
    { t: 'create', s: 'crashed', v: 1, options: { id: 'crashed' } },
    { t: 'call', s: 'crashed', v: 2, entry: entry(1) },
    { t: 'call', s: 'crashed', v: 3, entry: entry(2) },
  ];
  writeFileSync(join(dir, 'wal-000001.jsonl'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  await withServer(dir, async (server) => {
    t.equal((await server.state('crashed')).retail.orders[pending.order_id].address.address2, '#2');
    t.equal((await server.request('GET', '/sessions/crashed/journal')).body.length, 2);
  });
  t.notOk(readdirSync(dir).includes('wal-000001.jsonl'), 'the replayed log is folded into a snapshot and removed');
  const snapshot = readSnapshot(dir, 'crashed');
  t.equal(snapshot.version, 3);
});

t.test("a task session's instance and typed answers survive a restart, from a snapshot and from the log", async (t) => {
  const dir = t.testdir();
  const answer = { order_id: '#W0000001', refunds: [{ payment_method_id: 'paypal_1', amount: 12.5 }] };
  let state: unknown;
  await withServer(dir, async (server) => {
    await server.newSession({ id: 'answered', task: 'retail/001', seed: 9, kinds: [] });
    const { given } = (await server.request('GET', '/tasks/retail/001?seed=9')).body;
    t.equal((await server.call('retail', 'find_user_id_by_email', { email: given.email }, 'answered')).status, 200, "the instance's customer");
    t.equal((await server.call('retail', 'submit_answer', { ...answer, message: 'Done.' }, 'answered')).status, 200);
    state = (await server.request('GET', '/sessions/answered/state')).body;
  });
  const snapshot = readSnapshot(dir, 'answered');
  t.same(snapshot.answers, [{ answer, text: 'Done.' }], 'the snapshot holds the answer');
  t.match(snapshot.options, { task: 'retail/001', seed: 9 }, 'and the instance');
  await withServer(dir, async (server) => {
    t.match((await server.request('GET', '/sessions/answered')).body, { task: 'retail/001', seed: '9', answers: 1 });
    t.same((await server.request('GET', '/sessions/answered/state')).body, state, "the restored session runs on its instance's database");
    t.match((await server.request('GET', '/sessions/answered/score')).body, { seed: 9, answer: { answered: true, rule: 'typed' } });
  });

  const crashed = t.testdir({ sessions: {} });
  const lines = [
    { t: 'create', s: 'logged', v: 1, options: { id: 'logged', task: 'retail/001', seed: 4 } },
    { t: 'answer', s: 'logged', v: 2, answer: { answer } },
    { t: 'create', s: 'older', v: 1, options: { id: 'older', task: 'retail/001' } },
    { t: 'answer', s: 'older', v: 2, text: 'It is cancelled.' },
  ];
  writeFileSync(join(crashed, 'wal-000001.jsonl'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  await withServer(crashed, async (server) => {
    t.match((await server.request('GET', '/sessions/logged')).body, { task: 'retail/001', seed: '4', answers: 1 }, 'the logged answer is replayed');
    t.match((await server.request('GET', '/sessions/logged/score')).body, { seed: 4, answer: { answered: true } });
    t.match((await server.request('GET', '/sessions/older')).body, { answers: 1 }, 'a log from before typed answers: its text is kept');
    t.match((await server.request('GET', '/sessions/older/score')).body, { seed: 0, answer: { answered: false } }, 'words do not answer a typed task');
  });

  const broken = t.testdir({ sessions: {} });
  writeFileSync(join(broken, 'wal-000001.jsonl'), `${JSON.stringify({ t: 'create', s: 'gone', v: 1, options: { id: 'gone', task: 'retail/999' } })}\n`);
  await t.rejects(
    withServer(broken, async () => {}),
    /wal-000001\.jsonl:1: cannot rebuild the task of session gone/,
    'a task that no longer exists stops the restore, naming the record',
  );
});

t.test('log records a snapshot already holds are not applied twice', async (t) => {
  const dir = t.testdir();
  await withServer(dir, async (server) => {
    await server.call('retail', 'modify_pending_order_address', { order_id: pending.order_id, ...address }, 'twice');
  });
  const snapshot = readSnapshot(dir, 'twice');
  // The same call, still in a log next to the snapshot that holds it (a crash between the two writes):
  writeLog(dir, 'wal-000009.jsonl', [{ t: 'call', s: 'twice', v: snapshot.version, entry: snapshot.journal[0] }]);
  await withServer(dir, async (server) => {
    t.equal((await server.request('GET', '/sessions/twice/journal')).body.length, 1);
  });
});

type Logged = { warnings: string[]; errors: string[] };

/** A store and its persistence on `dir`, without a server; what they log is kept. */
async function persistenceOn(dir: string, Persistence: typeof SessionPersistence = SessionPersistence) {
  const logged: Logged = { warnings: [], errors: [] };
  const store = new SessionStore({ bases: await fixtureBases(), ttlMs: 60_000, maxSessions: 10, defaultSeed: '0' });
  const saved = new Persistence({ dir, intervalMs: 3_600_000 }, store, {
    info() {},
    warn: (message) => logged.warnings.push(message),
    error: (_details, message) => logged.errors.push(message),
  });
  return { store, saved, logged };
}

/** Keeps every libuv worker thread busy for a while: an asynchronous file write cannot finish meanwhile. */
function stallThreadPool(): Promise<unknown> {
  const busy = () => new Promise((resolve) => pbkdf2('stall', 'salt', 400_000, 64, 'sha512', resolve));
  return Promise.all(Array.from({ length: Number(process.env['UV_THREADPOOL_SIZE'] ?? 4) }, busy));
}

const walRecords = (dir: string) =>
  readdirSync(dir)
    .filter((name) => name.startsWith('wal-'))
    .flatMap((name) => readLog(join(dir, name)));

for (const durability of ['process', 'fsync'] as const) {
  t.test(`${durability}: a call is answered only once its record is in the log file`, async (t) => {
    const dir = t.testdir();
    await withServer(
      dir,
      async (server) => {
        await server.newSession({ id: 'acked' });
        const stalled = stallThreadPool();
        const checks = Array.from({ length: 10 }, async (_, i) => {
          const reply = await server.call('retail', 'modify_pending_order_address', { order_id: pending.order_id, ...address, address2: `#${i}` }, 'acked');
          // Read at the moment of the answer: an acknowledged write must already be in the file.
          const logged = walRecords(dir).some((r) => r.t === 'call' && r.entry.args.address2 === `#${i}`);
          return reply.status === 200 && logged;
        });
        t.same(await Promise.all(checks), Array(10).fill(true), 'each of 10 concurrent writes was in the file when answered');
        await stalled;
      },
      durability,
    );
  });
}

t.test('a torn last record (a crash during its write) is dropped with a warning; the rest is restored', async (t) => {
  const dir = t.testdir({ sessions: {} });
  const entry = (seq: number) => ({
    seq,
    at: 0,
    domain: 'retail',
    tool: 'modify_pending_order_address',
    call: seq,
    args: {},
    status: 200,
    result: {},
    hazards: [],
    duration_ms: 1,
    changes: [{ table: 'orders', id: pending.order_id, value: { ...pending, address: { ...address, address2: `#${seq}` } } }],
  });
  const whole = [
    { t: 'create', s: 'torn', v: 1, options: { id: 'torn' } },
    { t: 'call', s: 'torn', v: 2, entry: entry(1) },
  ].map((r) => JSON.stringify(r));
  const torn = JSON.stringify({ t: 'call', s: 'torn', v: 3, entry: entry(2) }).slice(0, 120);
  writeFileSync(join(dir, 'wal-000003.jsonl'), `${whole.join('\n')}\n${torn}`);
  const { store, saved, logged } = await persistenceOn(dir);
  await saved.open();
  t.match(logged.warnings, [/wal-000003\.jsonl:3: dropped a record cut short at its end/]);
  t.equal(store.get('torn')?.seq, 1, 'the whole records are restored');
  t.same(store.get('torn')!.domain('retail').tables['orders']!.get(pending.order_id), entry(1).changes[0]!.value);
  await saved.close();
});

t.test('a corrupt record before the end of a format 1 log stops the restore, naming the file and line', async (t) => {
  const dir = t.testdir({
    sessions: {},
    'wal-000001.jsonl': '{"t":"create","s":"a","v":1,"options":{}}\n{"t":"call","s":"a",GARBAGE\n{"t":"reset","s":"a","v":3}\n',
  });
  const { saved } = await persistenceOn(dir);
  await t.rejects(saved.open(), { constructor: PersistenceError, message: /wal-000001\.jsonl:2: not a log record/ });
  t.ok(readdirSync(dir).includes('wal-000001.jsonl'), 'the damaged log is left as it was');
  const run = await runServerToExit({ DATA_DIR: dir });
  t.equal(run.code, 1, 'the command stops');
  t.match(run.output, /^wildtools: .*wal-000001\.jsonl:2: not a log record/m, 'with the message, not a stack');
  t.notMatch(run.output, /at .*persistence\.ts/, 'no stack trace');
});

t.test('an unreadable snapshot of format 1 stops the restore, naming the file', async (t) => {
  const dir = t.testdir({ sessions: { 'x.json': '{"id": "x", "version"' } });
  const { saved } = await persistenceOn(dir);
  await t.rejects(saved.open(), { constructor: PersistenceError, message: /x\.json: not a session snapshot/ });
});

t.test('checkpoints close and remove the logs they cover: no file or handle piles up', async (t) => {
  const dir = t.testdir();
  await withServer(dir, async (server) => {
    const openLogs = () =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`).startsWith(dir);
        } catch {
          return false;
        }
      }).length;
    for (let i = 0; i < 20; i++) {
      await server.call('retail', 'modify_pending_order_address', { order_id: pending.order_id, ...address, address2: `#${i}` }, 'busy');
      await (server.app.sessions.observer as SessionPersistence).checkpoint();
    }
    t.same(readdirSync(dir).filter((name) => name.startsWith('wal-')).length, 1, 'one log file: the current one');
    t.equal(openLogs(), 1, 'one open handle in DATA_DIR');
  });
  t.same(
    readdirSync(dir).filter((name) => name.startsWith('wal-')),
    [],
    'a graceful stop leaves snapshots only',
  );
});

t.test('a change whose record cannot be written is answered 503, not acknowledged', async (t) => {
  const server = await startServer(t);
  server.app.sessions.observer = {
    created() {},
    called() {},
    answered() {},
    reset() {},
    deleted() {},
    settled: () => Promise.reject(new Error('ENOSPC: no space left on device, write')),
  };
  const call = await server.call('retail', 'modify_pending_order_address', { order_id: pending.order_id, ...address }, 'disk-full');
  t.match(call, { status: 503, body: { code: 'persistence_failed', detail: /ENOSPC.*was not made/ } }, 'a tool call');
  t.match(await server.request('POST', '/sessions', { id: 'new' }), { status: 503, body: { code: 'persistence_failed' } }, 'a new session');
  t.match(await server.request('POST', '/sessions/disk-full/reset'), { status: 503, body: { code: 'persistence_failed' } }, 'a reset');
  server.app.sessions.observer = undefined;
  t.equal(
    (await server.call('retail', 'get_order_details', { order_id: pending.order_id }, 'disk-full')).status,
    200,
    'once the disk is back, calls are answered',
  );
});

t.test('a checkpoint is due once the log has grown past the threshold and past the last checkpoint', async (t) => {
  const dir = t.testdir();
  const size = (names: string[], folder = dir) => names.reduce((sum, name) => sum + statSync(join(folder, name)).size, 0);
  const logSize = () => size(readdirSync(dir).filter((name) => name.startsWith('wal-')));
  await withServer(
    dir,
    async (server) => {
      const saved = server.app.sessions.observer as SessionPersistence;
      const write = (i: number) =>
        server.call('retail', 'modify_pending_order_address', { order_id: pending.order_id, ...address, address2: `#${i}` }, 'growing');
      /** Writes until a checkpoint is due; the log's size just before the last write, and at the end. */
      const growUntilDue = async (from: number) => {
        let before = logSize();
        for (let i = from; !saved.checkpointDue; i++) {
          before = logSize();
          await write(i);
        }
        return { before, after: logSize() };
      };
      t.notOk(saved.checkpointDue, 'not with an empty log');
      const first = await growUntilDue(0);
      t.ok(first.before < 4096 && first.after >= 4096, `due when the log passes CHECKPOINT_BYTES (${first.before} → ${first.after} bytes)`);
      await saved.checkpoint();
      t.notOk(saved.checkpointDue, 'not right after one');
      const snapshots = size(readdirSync(join(dir, 'sessions')), join(dir, 'sessions'));
      const second = await growUntilDue(100);
      t.ok(
        second.before < snapshots && second.after >= snapshots,
        `then when the log passes what the checkpoint wrote (${snapshots} bytes: ${second.before} → ${second.after})`,
      );
    },
    'process',
    4096,
  );
});

t.test('a failed checkpoint keeps the logs, opens no handle more, and the next one catches up', async (t) => {
  const dir = t.testdir({ sessions: {} });
  let failing = true;
  const atomic = await import('../../server/core/sessions/atomic-file.js');
  const { SessionPersistence: Persistence } = await t.mockImport<typeof import('../../server/core/sessions/persistence.js')>(
    '../../server/core/sessions/persistence.js',
    {
      '../../server/core/sessions/atomic-file.js': {
        ...atomic,
        writeFileAtomic: async (...args: Parameters<typeof atomic.writeFileAtomic>) => {
          if (failing) throw Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' });
          return atomic.writeFileAtomic(...args);
        },
      },
    },
  );
  const { store, saved, logged } = await persistenceOn(dir, Persistence);
  await saved.open();
  const logs = () =>
    readdirSync(dir)
      .filter((name) => name.startsWith('wal-'))
      .sort();
  store.create({ id: 'kept' });
  await store.persisted();
  for (let attempt = 0; attempt < 3; attempt++) await saved.checkpoint();
  t.same(logged.errors, Array(3).fill('session checkpoint failed; the logs are kept'), 'each failure is logged');
  t.equal(logs().length, 4, 'the log with the records and the (empty) ones after it are kept');
  t.notOk(readdirSync(join(dir, 'sessions')).includes('kept.json'));
  failing = false;
  store.get('kept')!.clock.tick();
  store.recordCall(
    store.get('kept')!,
    {
      seq: 1,
      at: 0,
      domain: 'retail',
      tool: 'calculate',
      call: 1,
      args: {},
      status: 200,
      result: '2.0',
      problem: undefined,
      changes: [],
      hazards: [],
      duration_ms: 0,
    },
    300,
  );
  await saved.checkpoint();
  t.ok(readdirSync(join(dir, 'sessions')).includes('kept.json'), 'the next checkpoint writes the session');
  t.equal(logs().length, 1, 'and removes every log it covers');
  await saved.close();
  t.same(logs(), [], 'a graceful stop leaves no log');
});
