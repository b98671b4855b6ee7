// `npm run bench`: compiles, then measures with autocannon over loopback, each server in its own process:
// 1. reads: the wildtools server and a bare fastify baseline on the same read (an order by id), in
//    alternating rounds; prints throughput, latency and the median ratio;
// 2. writes: a write tool in memory, then with DATA_DIR in both durability modes; prints writes/s.
// Every run is bounded in time.
import type { ChildProcess } from 'node:child_process';
import { startChildServer } from './child-server.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '3' },
    hazards: { type: 'string', default: '' },
    writes: { type: 'boolean', default: true },
  },
  allowNegative: true,
});
/** HAZARDS for the wildtools server (e.g. `all`): failures are then expected, and counted. */
const hazards = values.hazards;
const duration = Number(values.duration);
const connections = Number(values.connections);
const warmup = Number(values.warmup);
const rounds = Number(values.rounds);

const db = JSON.parse(readFileSync(new URL('../fixtures/retail.json', import.meta.url), 'utf8')) as { orders: Record<string, { status: string }> };
const orderId = Object.keys(db.orders)[0]!;
const pendingId = Object.entries(db.orders).find(([, order]) => order.status === 'pending')![0];
const WRITE_SESSIONS = 10;

interface Target {
  name: string;
  script: string;
  port: number;
  path: string;
  body: object;
  env?: Record<string, string>;
  /** Spread the calls over this many sessions (/s/bench-N/…). */
  sessions?: number;
}

const read = { body: { order_id: orderId } };
const baseline: Target = { name: 'bare fastify, Map lookup', script: 'bench/baseline.ts', port: 18181, path: '/orders', ...read };
const wildtools: Target = {
  name: `wildtools get_order_details${hazards ? ` (HAZARDS=${hazards})` : ''}`,
  script: 'dist/server/main.js',
  port: 18182,
  path: '/retail/tools/get_order_details',
  env: { LOG_LEVEL: 'warn', HAZARDS: hazards, HAZARD_LATENCY_MS: '0' },
  ...read,
};
const address = { address1: '1 Bench Way', address2: '', city: 'Reno', state: 'NV', country: 'USA', zip: '89501' };
const write = (name: string, env: Record<string, string>): Target => ({
  name,
  script: 'dist/server/main.js',
  port: 18183,
  path: '/retail/tools/modify_pending_order_address',
  body: { order_id: pendingId, ...address },
  env: { LOG_LEVEL: 'warn', ...env },
  sessions: WRITE_SESSIONS,
});

const start = (target: Target): Promise<ChildProcess> => startChildServer(target.script, target.port, target.env);

function load(target: Target, seconds: number): Promise<autocannon.Result> {
  let next = 0;
  return autocannon({
    url: `http://127.0.0.1:${target.port}${target.path}`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(target.body),
    connections,
    duration: seconds,
    ...(target.sessions
      ? { requests: [{ setupRequest: (request: autocannon.Request) => ({ ...request, path: `/s/bench-${next++ % target.sessions!}${target.path}` }) }] }
      : {}),
  });
}

async function measure(target: Target): Promise<autocannon.Result> {
  const child = await start(target);
  try {
    if (warmup > 0) await load(target, warmup);
    const result = await load(target, duration);
    if (!target.env?.['HAZARDS'] && (result.non2xx > 0 || result.errors > 0))
      throw new Error(`${target.name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
    return result;
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

const line = (name: string, result: autocannon.Result, unit: string) =>
  `${name.padEnd(44)} ${result.requests.average.toFixed(0).padStart(7)} ${unit}   latency p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms` +
  (result.non2xx + result.errors > 0 ? `   (${result.non2xx} non-2xx answers, ${result.errors} connection errors)` : '');
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;

console.log(`\n${connections} connections, ${duration} s per run after ${warmup} s of warm-up\n\nreads (order ${orderId}), ${rounds} alternating rounds:`);
const ratios: number[] = [];
for (let round = 1; round <= rounds; round++) {
  const base = await measure(baseline);
  const ours = await measure(wildtools);
  ratios.push(ours.requests.average / base.requests.average);
  console.log(
    `  round ${round}\n    ${line(baseline.name, base, 'req/s')}\n    ${line(wildtools.name, ours, 'req/s')}\n    ratio ${ratios.at(-1)!.toFixed(3)}`,
  );
}
console.log(`ratio wildtools / baseline: median ${median(ratios).toFixed(3)} of ${ratios.map((r) => r.toFixed(3)).join(', ')} (target ≥ 0.8)`);

if (values.writes) {
  console.log(`\nwrites (modify_pending_order_address on ${pendingId}, spread over ${WRITE_SESSIONS} sessions):`);
  const dir = mkdtempSync(join(tmpdir(), 'wildtools-bench-'));
  try {
    for (const [name, env] of [
      ['in memory (no DATA_DIR)', {}],
      ['DATA_DIR, acknowledged once handed to the OS', { DATA_DIR: join(dir, 'process') }],
      ['DATA_DIR + DATA_FSYNC=1, once on the disk', { DATA_DIR: join(dir, 'fsync'), DATA_FSYNC: '1' }],
    ] as const) {
      console.log(`  ${line(name, await measure(write(name, env)), 'writes/s')}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
