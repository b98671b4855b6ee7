// `npm run bench`: compiles, then measures with autocannon over loopback, each server in its own process:
// 1. reads: the wildtools server and a bare fastify baseline on the same read (an order by id), in
//    alternating rounds; prints throughput, latency and the median ratio;
// 2. writes: a write tool in memory, then with DATA_DIR in both durability modes; prints writes/s;
// 3. proxy: a read of the example CRM (examples/upstream-crm) called directly and through wildtools' proxy
//    (hazards off), in alternating rounds; prints the overhead per call.
// Every run is bounded in time.
import type { ChildProcess } from 'node:child_process';
import { startChildServer } from './child-server.js';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
    proxy: { type: 'boolean', default: true },
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
  method?: 'GET' | 'POST';
  script: string;
  port: number;
  path: string;
  body?: object;
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
    method: target.method ?? 'POST',
    ...(target.body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(target.body) } : {}),
    connections,
    duration: seconds,
    ...(target.sessions
      ? { requests: [{ setupRequest: (request: autocannon.Request) => ({ ...request, path: `/s/bench-${next++ % target.sessions!}${target.path}` }) }] }
      : {}),
  });
}

async function measure(target: Target, running = false): Promise<autocannon.Result> {
  const child = running ? undefined : await start(target);
  try {
    if (warmup > 0) await load(target, warmup);
    const result = await load(target, duration);
    if (!target.env?.['HAZARDS'] && (result.non2xx > 0 || result.errors > 0))
      throw new Error(`${target.name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
    return result;
  } finally {
    if (child) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
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

if (values.proxy) {
  // The upstream runs through the whole section; each round starts the proxy afresh, like every other server here.
  const crmPort = 18184;
  const dir = mkdtempSync(join(tmpdir(), 'wildtools-bench-proxy-'));
  const config = join(dir, 'proxy.json');
  const openapi = new URL('../examples/upstream-crm/openapi.json', import.meta.url).pathname;
  writeFileSync(config, JSON.stringify({ crm: { upstream: `http://127.0.0.1:${crmPort}`, openapi } }));
  const crm = await startChildServer('examples/upstream-crm/main.ts', crmPort);
  const direct: Target = { name: 'CRM get_contact, direct', method: 'GET', script: '', port: crmPort, path: '/contacts/c_001' };
  const proxied: Target = {
    name: 'CRM get_contact through /proxy/crm',
    method: 'GET',
    script: 'dist/server/main.js',
    port: 18185,
    path: '/proxy/crm/contacts/c_001',
    env: { LOG_LEVEL: 'warn', PROXY_CONFIG: config },
  };
  console.log(`\nproxy (a read of the example CRM, hazards off), ${rounds} alternating rounds:`);
  const overheads: number[] = [];
  const shares: number[] = [];
  try {
    for (let round = 1; round <= rounds; round++) {
      const base = await measure(direct, true);
      const through = await measure(proxied);
      // Per call at this concurrency: what the proxy adds to the upstream's own time, in microseconds.
      overheads.push((1 / through.requests.average - 1 / base.requests.average) * 1e6);
      shares.push(through.requests.average / base.requests.average);
      console.log(
        `  round ${round}\n    ${line(direct.name, base, 'req/s')}\n    ${line(proxied.name, through, 'req/s')}\n    ratio ${shares.at(-1)!.toFixed(3)}`,
      );
    }
  } finally {
    crm.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    `ratio proxied / direct: median ${median(shares).toFixed(3)} of ${shares.map((r) => r.toFixed(3)).join(', ')}; ` +
      `added time per call ≈ ${median(overheads).toFixed(0)} µs of server time (1/throughput)`,
  );
}
