// `npm run bench`: compiles, then starts the wildtools server and a bare fastify baseline, each in its own
// process, loads each in turn with autocannon on the same read (an order by id), and prints
// throughput, latency and the ratio. Loopback only; every run is bounded in time.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    hazards: { type: 'string', default: '' },
  },
});
/** HAZARDS for the wildtools server (e.g. `all`): failures are then expected, and counted. */
const hazards = values.hazards;
const duration = Number(values.duration);
const connections = Number(values.connections);
const warmup = Number(values.warmup);

const db = JSON.parse(readFileSync(new URL('../fixtures/retail.json', import.meta.url), 'utf8')) as { orders: Record<string, unknown> };
const orderId = Object.keys(db.orders)[0]!;
const tsx = new URL('../node_modules/.bin/tsx', import.meta.url).pathname;

interface Target {
  name: string;
  script: string;
  port: number;
  path: string;
  env?: Record<string, string>;
}

const targets: Target[] = [
  { name: 'bare fastify, Map lookup', script: 'bench/baseline.ts', port: 18181, path: '/orders' },
  {
    name: `wildtools get_order_details${hazards ? ` (HAZARDS=${hazards})` : ''}`,
    script: 'dist/server/main.js',
    port: 18182,
    path: '/retail/tools/get_order_details',
    env: { LOG_LEVEL: 'warn', HAZARDS: hazards, HAZARD_LATENCY_MS: '0' },
  },
];

async function start(target: Target): Promise<ChildProcess> {
  const [command, args] = target.script.endsWith('.ts') ? [tsx, [target.script]] : [process.execPath, [target.script]];
  const child = spawn(command, args, { env: { ...process.env, ...target.env, PORT: String(target.port) }, stdio: 'inherit' });
  const deadline = performance.now() + 30_000;
  while (performance.now() < deadline) {
    try {
      await fetch(`http://127.0.0.1:${target.port}${target.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ order_id: orderId }) });
      return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGTERM');
  throw new Error(`${target.name} did not start`);
}

function load(target: Target, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: `http://127.0.0.1:${target.port}${target.path}`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ order_id: orderId }),
    connections,
    duration: seconds,
  });
}

const results: { name: string; result: autocannon.Result }[] = [];
for (const target of targets) {
  const child = await start(target);
  try {
    if (warmup > 0) await load(target, warmup);
    const result = await load(target, duration);
    const disturbed = target.env?.['HAZARDS'];
    if (!disturbed && (result.non2xx > 0 || result.errors > 0)) throw new Error(`${target.name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
    results.push({ name: target.name, result });
  } finally {
    child.kill('SIGTERM');
  }
}

console.log(`\n${connections} connections, ${duration} s each after ${warmup} s of warm-up, order ${orderId}\n`);
for (const { name, result } of results) {
  console.log(
    `${name.padEnd(30)} ${result.requests.average.toFixed(0).padStart(7)} req/s   latency p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms` +
      (result.non2xx + result.errors > 0 ? `   (${result.non2xx} non-2xx answers, ${result.errors} connection errors)` : ''),
  );
}
const [baseline, wildtools] = results.map((r) => r.result.requests.average) as [number, number];
console.log(`\nratio wildtools / baseline: ${(wildtools / baseline).toFixed(3)} (target ≥ 0.8)`);
