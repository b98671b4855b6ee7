import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { crashedData, readSnapshot, writeLog } from '../helpers/data-dir.js';
import { startServer } from '../helpers/server.js';
import { findOrder } from '../helpers/retail.js';
import { runServerToExit } from '../helpers/process.js';

const pending = findOrder((o) => o.status === 'pending');
const address = { address1: '9 Disk Lane', address2: '', city: 'Reno', state: 'NV', country: 'USA', zip: '89501' };

type Server = Awaited<ReturnType<typeof startServer>>;
const serverOn = (t: Test, dir: string, recover: 'stop' | 'quarantine' = 'stop'): Promise<Server> =>
  startServer(t, { persistence: { dir, intervalMs: 3_600_000, recover } });

function copyOf(dir: string, name: string): string {
  const copy = join(dir, '..', name);
  cpSync(dir, copy, { recursive: true });
  return copy;
}

const logOf = (dir: string) => join(dir, readdirSync(dir).find((name) => name.startsWith('wal-'))!);
const linesOf = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean);
const writeLines = (path: string, lines: string[]) => writeFileSync(path, `${lines.join('\n')}\n`);

t.test('damage in DATA_DIR stops the start with one message naming the file, the record and what is wrong', async (t) => {
  const { crashed } = await crashedData(t);
  t.equal(linesOf(logOf(crashed)).length, 6, 'the log holds 2 creations and 4 calls');

  const cases: [string, (dir: string) => void, RegExp][] = [
    [
      'a flipped bit that leaves valid JSON',
      (dir) => writeFileSync(logOf(dir), readFileSync(logOf(dir), 'utf8').replace('"address2":"#1"', '"address2":"#3"')),
      /wal-000001\.jsonl:\d: its checksum is [0-9a-f]{8}, not the [0-9a-f]{8} recorded: its bytes changed/,
    ],
    [
      'a record deleted from the middle',
      (dir) => writeLines(logOf(dir), linesOf(logOf(dir)).toSpliced(2, 1)),
      /wal-000001\.jsonl:3: records 3 to 3 are missing \(record 4 follows 2\)/,
    ],
    [
      'a record written twice',
      (dir) => writeLines(logOf(dir), linesOf(logOf(dir)).toSpliced(3, 0, linesOf(logOf(dir))[2]!)),
      /wal-000001\.jsonl:4: record 3 comes after record 3: a record repeated or out of order/,
    ],
    [
      'two records swapped',
      (dir) => {
        const lines = linesOf(logOf(dir));
        writeLines(logOf(dir), [lines[0]!, lines[2]!, lines[1]!, ...lines.slice(3)]);
      },
      /wal-000001\.jsonl:2: records 2 to 2 are missing \(record 3 follows 1\)/,
    ],
    ['a log copied under the next number', (dir) => cpSync(logOf(dir), join(dir, 'wal-000002.jsonl')), /wal-000002\.jsonl:1: record 1 comes after record 6/],
    [
      'a format this version does not know',
      (dir) => writeFileSync(join(dir, 'FORMAT'), 'wildtools data 9\n'),
      /holds data of format 9; this version reads formats 1 \(and migrates it\) to 3/,
    ],
  ];
  for (const [name, damage, message] of cases) {
    const dir = copyOf(crashed, name.replaceAll(' ', '-'));
    damage(dir);
    await t.rejects(serverOn(t, dir), message, name);
  }

  const dir = copyOf(crashed, 'command');
  writeLines(logOf(dir), linesOf(logOf(dir)).toSpliced(2, 1));
  const run = await runServerToExit({ DATA_DIR: dir });
  t.equal(run.code, 1, 'the command stops');
  t.match(run.output, /^wildtools: .*wal-000001\.jsonl:3: records 3 to 3 are missing.*DATA_RECOVER=quarantine/m, 'with one line, not a stack');
  t.notMatch(run.output, /at .*persistence\.ts/);
});

t.test('a damaged snapshot, found when its session is read back after start, holds that session back with a 503 naming it', async (t) => {
  const { closed } = await crashedData(t);
  const cases: [string, (dir: string) => void, string, RegExp][] = [
    [
      'a snapshot cut short',
      (dir) => writeFileSync(join(dir, 'sessions', 'a.json'), readFileSync(join(dir, 'sessions', 'a.json'), 'utf8').slice(0, -20)),
      'a',
      /a\.json:\d+: its checksum is [0-9a-f]{8}, not the [0-9a-f]{8} recorded/,
    ],
    [
      'a journal file cut short',
      (dir) => writeLines(join(dir, 'sessions', 'a.1.journal'), linesOf(join(dir, 'sessions', 'a.1.journal')).slice(0, -1)),
      'a',
      /a\.1\.journal: it holds \d+ bytes where its snapshot counts \d+: it was cut/,
    ],
    [
      'a journal entry changed',
      (dir) => writeFileSync(join(dir, 'sessions', 'a.1.journal'), readFileSync(join(dir, 'sessions', 'a.1.journal'), 'utf8').replace('"#2"', '"#8"')),
      'a',
      /a\.1\.journal:3: its checksum is [0-9a-f]{8}, not the [0-9a-f]{8} recorded/,
    ],
    [
      'a log record that does not follow on from its snapshot',
      (dir) => writeLog(dir, 'wal-000001.jsonl', [{ t: 'reset', s: 'a', v: 6 }]),
      'a',
      /wal-000001\.jsonl:1: session a: its changes 5 to 5 are missing \(its snapshot holds 4\)/,
    ],
    [
      "a snapshot under another session's name",
      (dir) => cpSync(join(dir, 'sessions', 'a.json'), join(dir, 'sessions', 'c.json')),
      'c',
      /c\.json: it holds session "a", not c/,
    ],
  ];
  for (const [name, damage, id, message] of cases) {
    const dir = copyOf(closed, name.replaceAll(' ', '-'));
    damage(dir);
    const server = await serverOn(t, dir);
    const reply = await server.request('GET', `/sessions/${id}`);
    t.equal(reply.status, 503, `${name}: the session is held back`);
    t.match(reply.body, { code: 'session_damaged', detail: message }, `${name}: named, with the file and what is wrong`);
    t.equal(
      (await server.request('POST', `/s/${id}/retail/tools/get_order_details`, { order_id: pending.order_id })).status,
      503,
      `${name}: no call reaches it`,
    );
    t.equal((await server.request('GET', '/sessions/b')).status, 200, `${name}: the sound sessions are served`);
    t.match((await server.request('GET', '/health')).body, { status: 'degraded', damaged: [{ session: id, problem: /./ }] }, `${name}: /health says so`);
    t.ok(existsSync(join(dir, 'sessions', `${id}.json`)), `${name}: the file stays where it is, to be repaired`);
  }
});

t.test('DATA_RECOVER=quarantine sets the damaged sessions aside, starts, and says so on /health', async (t) => {
  const { crashed, closed } = await crashedData(t);
  const dir = copyOf(crashed, 'flipped');
  // The third record is a's second call: from there on the log cannot be trusted, and it names a and b.
  const lines = linesOf(logOf(dir));
  t.match(lines[2], /"s":"a".*"address2":"#1"/);
  writeLines(logOf(dir), lines.with(2, lines[2]!.replace('"#1"', '"#7"')));
  const server = await serverOn(t, dir, 'quarantine');
  const health = (await server.request('GET', '/health')).body;
  t.match(health, { status: 'degraded', quarantined: [{ session: 'a', where: /wal-000001\.jsonl:3$/, problem: /checksum/ }, { session: 'b' }] });
  t.equal((await server.request('GET', '/sessions/a')).status, 404, 'the damaged session is left out');
  t.ok(existsSync(join(dir, 'quarantine', 'wal-000001.jsonl')), 'the damaged log is kept aside');
  t.equal(readFileSync(join(dir, 'quarantine', 'a.records.jsonl'), 'utf8'), `${lines.slice(0, 2).join('\n')}\n`, "and a's records before the damage beside it");

  const snapshot = copyOf(closed, 'one-snapshot');
  writeFileSync(join(snapshot, 'sessions', 'a.json'), readFileSync(join(snapshot, 'sessions', 'a.json'), 'utf8').replace('"#2"', '"#8"'));
  const other = await serverOn(t, snapshot, 'quarantine');
  t.equal((await other.request('GET', '/sessions/a')).status, 404, 'read back on first use, the damaged session is set aside');
  t.match((await other.request('GET', '/health')).body.quarantined, [{ session: 'a', where: /a\.json:1$/ }]);
  t.equal((await other.request('GET', '/sessions/b')).status, 200, 'a sound session is restored');
  t.ok(existsSync(join(snapshot, 'quarantine', 'a.json')), 'the damaged snapshot is kept aside');
});

t.test('data of format 1 (no checksums) is migrated at start', async (t) => {
  const dir = t.testdir({ sessions: {} });
  const entry = {
    seq: 1,
    at: 0,
    domain: 'retail',
    tool: 'modify_pending_order_address',
    call: 1,
    args: {},
    status: 200,
    result: {},
    hazards: [],
    duration_ms: 1,
    changes: [{ table: 'orders', id: pending.order_id, value: { ...pending, address } }],
  };
  const records = [
    { t: 'create', s: 'old', v: 1, options: { id: 'old' } },
    { t: 'call', s: 'old', v: 2, entry },
  ];
  writeFileSync(join(dir, 'wal-000001.jsonl'), `${records.map((record) => JSON.stringify(record)).join('\n')}\n`);
  const server = await serverOn(t, dir);
  t.same((await server.state('old')).retail.orders[pending.order_id].address, address, 'its sessions are restored');
  t.equal(readFileSync(join(dir, 'FORMAT'), 'utf8'), 'wildtools data 3\n', 'the folder is marked with the new format');
  t.match(readSnapshot(dir, 'old'), { id: 'old', version: 2 }, 'its sessions are written again, checksummed');
  t.notOk(
    readdirSync(dir).some((name) => name.startsWith('wal-000001')),
    'the old logs are gone',
  );
});
