import { spawn } from 'node:child_process';
import t from 'tap';
import { startServer } from '../helpers/server.js';
import type { Tally } from './checker.js';
import { fuzzSummary } from './summary.js';

// `npm run fuzz` says only what it could read: hazards it switched on, or those a server at --url reports;
// the server's memory only for a server it started.

const tally = (struck: number): Tally => ({
  requests: 10,
  byStatus: new Map([[200, 10]]),
  injected5xx: 0,
  unexplained5xx: 0,
  changedOn4xx: 0,
  struck,
  violations: [],
});
const journal = { bytes: 2 ** 20, limit: null };

t.test('a server it started: the hazards it set, the calls they struck, the memory it read', async (t) => {
  const text = fuzzSummary({
    tally: tally(3),
    seconds: 1,
    sessions: 2,
    seed: 7,
    hazards: { own: true, rate: 0.3 },
    rss: { before: 80, after: 95 },
    journal,
    broken: [],
  });
  t.match(text, 'hazards         every kind on at 0.3 (HAZARDS=all); 3 calls struck');
  t.match(text, 'server RSS      80 MB before, 95 MB after');
  t.match(
    fuzzSummary({ tally: tally(0), seconds: 1, sessions: 2, seed: 7, hazards: { own: false, rate: 0.3 }, journal, broken: [] }),
    'hazards         off; 0 calls struck',
  );
});

t.test('a server at --url: its own hazards as it reports them, its memory unknown', async (t) => {
  const url = 'http://10.0.0.1:8080';
  const none = fuzzSummary({ tally: tally(0), seconds: 1, sessions: 2, seed: 7, hazards: { url, activeCells: 0 }, journal, broken: [] });
  t.match(none, `hazards         none: the server at ${url} has no tool × kind cell above 0 (GET /hazards?active=1); 0 calls struck`);
  t.match(none, `server RSS      unknown: the server at ${url} is not a process this command started`);
  t.notMatch(none, /every|NaN/);
  t.match(
    fuzzSummary({ tally: tally(4), seconds: 1, sessions: 2, seed: 7, hazards: { url, activeCells: 12 }, journal, broken: [] }),
    `as the server at ${url} sets them: 12 tool × kind cells above 0; 4 calls struck`,
  );
});

/** Runs `npm run fuzz` (test/fuzz/run.ts) to its end: exit code and output. */
function fuzz(args: readonly string[]): Promise<{ code: number | null; output: string }> {
  const script = new URL('run.ts', import.meta.url).pathname;
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    env: { ...process.env, _TAPJS_PROCESSINFO_COVERAGE_: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

t.test('npm run fuzz -- --url … --hazards: what that server applies and struck, no memory figure', async (t) => {
  const plain = await startServer(t);
  const calm = await fuzz(['--url', `${plain.origin}/`, '--hazards', '--requests', '40', '--sessions', '2', '--seed', '1']);
  t.equal(calm.code, 0, calm.output);
  t.match(calm.output, `hazards         none: the server at ${plain.origin} has no tool × kind cell above 0 (GET /hazards?active=1); 0 calls struck`);
  t.match(calm.output, `server RSS      unknown: the server at ${plain.origin} is not a process this command started`);
  t.notMatch(calm.output, /every kind|NaN/);

  const hazardous = await startServer(t, { hazardEnv: { HAZARDS: 'all', HAZARD_RATE: '1', HAZARD_LATENCY_MS: '0' } });
  const struck = await fuzz(['--url', hazardous.origin, '--hazards', '--requests', '40', '--sessions', '2', '--seed', '1']);
  t.equal(struck.code, 0, struck.output);
  const [, cells, calls] = /as the server at \S+ sets them: (\d+) tool × kind cells above 0; (\d+) calls struck/.exec(struck.output) ?? [];
  t.ok(Number(cells) > 0, `${cells} cells active`);
  t.ok(Number(calls) > 0, `${calls} calls struck at rate 1`);
});
