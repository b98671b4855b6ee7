import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type BatchResult, maxBatch, runBatch, scaleTable } from '../agents/scale.js';
import { freePort, startChildServer } from '../bench/child-server.js';

// npm run openenv:scale [-- --sessions 1,2,4,…,2048] [--wait 1] [--steps 5] [--url http://host:port] [--json]
// OpenEnv's scaling measurement against wildtools: for each batch size, that many concurrent WebSocket
// episodes (reset, `steps` tool calls `wait` seconds apart, the answer); success rate, requests/s and latency
// percentiles per batch, and the largest batch at ≥ 95 % success. Without --url it starts the compiled
// server (dist/) in a child process on a free loopback port, so that client and server do not share a core.

const { values } = parseArgs({
  options: {
    sessions: { type: 'string', default: '1,2,4,8,16,32,64,128,256,512,1024,2048' },
    wait: { type: 'string', default: '1' },
    steps: { type: 'string', default: '5' },
    timeout: { type: 'string', default: '120' },
    url: { type: 'string' },
    out: { type: 'string', default: 'reports' },
    json: { type: 'boolean', default: false },
  },
});

const batches = values.sessions.split(',').map(Number);
const waits = values.wait.split(',').map(Number);
if ([...batches, ...waits].some((n) => !Number.isFinite(n) || n < 0)) throw new Error('--sessions and --wait take comma-separated numbers');

const server = values.url ? undefined : await startServer(Math.max(...batches) + 16);
const base = values.url ?? server!.base;
try {
  const results: BatchResult[] = [];
  for (const wait of waits) {
    for (const sessions of batches) {
      const result = await runBatch({
        baseUrl: `${base}/openenv`,
        sessions,
        steps: Number(values.steps),
        wait,
        task: 'retail/001',
        call: { tool_name: 'list_all_product_types', arguments: {} },
        timeout: Number(values.timeout),
      });
      results.push(result);
      if (!values.json)
        console.log(
          `${sessions} sessions, wait ${wait} s: ${(result.success_rate * 100).toFixed(1)} %, ${Math.round(result.requests_per_s)} req/s, ` +
            `p99 ${result.latency_ms.p99} ms`,
        );
    }
  }
  const summary = Object.fromEntries(waits.map((wait) => [wait, maxBatch(results.filter((r) => r.wait === wait))]));
  const report = { machine: machine(), steps: Number(values.steps), max_batch_at_95: summary, results };
  mkdirSync(values.out, { recursive: true });
  writeFileSync(join(values.out, 'openenv-scale.json'), `${JSON.stringify(report, null, 2)}\n`);
  if (values.json) console.log(JSON.stringify(report, null, 2));
  else {
    console.log(`\n${scaleTable(results)}\n`);
    for (const [wait, most] of Object.entries(summary)) console.log(`largest batch at ≥ 95 % success, wait ${wait} s: ${most} sessions`);
  }
} finally {
  server?.stop();
}

function machine() {
  return { node: process.version, cpus: availableParallelism() };
}

/** The compiled server in a child process with room for every session of the largest batch. */
async function startServer(maxSessions: number): Promise<{ base: string; stop(): void }> {
  const port = await freePort();
  const child = await startChildServer('dist/bundle/main.js', port, { HOST: '127.0.0.1', MAX_SESSIONS: String(maxSessions), LOG_LEVEL: 'warn' });
  return { base: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}
