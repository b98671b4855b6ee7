import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus } from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NGINX, startNginx } from '../../deploy/nginx.js';
import { execFileSync } from 'node:child_process';
import { cpuMicros, startChildServer, stopChild } from '../child-server.js';
import { type Call, measureCost, median } from '../load.js';
import type { BenchContext, Figure, Scenario } from '../scenario.js';

const REPLICAS = 2;
const SESSIONS = 64;
const FIRST_PORT = 18191;
const LISTEN = '127.0.0.1:18190';

/** The read call over SESSIONS sessions (so that the balancer's hash spreads them), at `port`. */
const reads = (context: BenchContext, port: number): Call => ({
  port,
  path: '/retail/tools/get_order_details',
  body: { order_id: context.orderId },
  pathOf: (n) => `/s/cluster-${n % SESSIONS}/retail/tools/get_order_details`,
});

/** What a setup served, and the CPU each part spent per call (µs): the replicas together, and nginx. */
interface Served {
  perSecond: number;
  replicaCpu: number;
  nginxCpu: number;
}

/** CPU of a process and its children (nginx's master and workers), in microseconds. */
function treeCpu(pid: number): number {
  const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
    .split(/\s+/)
    .filter(Boolean)
    .map(Number);
  return [pid, ...children].reduce((sum, id) => sum + cpuMicros(id), 0);
}

/** `count` replicas (unpinned: they share the machine with nginx and the load) behind nginx, loaded through it. */
async function throughNginx(context: BenchContext, count: number, dir: string): Promise<Served> {
  const ports = Array.from({ length: count }, (_, i) => FIRST_PORT + i);
  const peers = ports.map((port) => `127.0.0.1:${port}`);
  const replicas: ChildProcess[] = [];
  try {
    for (const [i, port] of ports.entries())
      replicas.push(
        await startChildServer(context.server, port, { LOG_LEVEL: 'warn', CLUSTER_PEERS: peers.join(','), CLUSTER_SELF: peers[i]! }, { pin: false }),
      );
    const nginx = await startNginx({ replicas: peers, listen: LISTEN, dir: join(dir, `nginx-${count}`), workerProcesses: count });
    try {
      const spent = () => [replicas.reduce((sum, replica) => sum + cpuMicros(replica.pid!), 0), treeCpu(nginx.pid!)];
      const result = await measureCost(reads(context, Number(LISTEN.split(':')[1])), context.load, spent);
      if (result.failed > 0 || result.errors > 0) throw new Error(`cluster: ${result.failed} failed answers, ${result.errors} connection errors`);
      const served = { perSecond: result.perSecond, replicaCpu: result.perCall[0]!, nginxCpu: result.perCall[1]! };
      context.log(
        `    ${`${count} replica${count > 1 ? 's' : ''} behind nginx`.padEnd(52)} ${served.perSecond.toFixed(0).padStart(7)}/s  ` +
          `replicas ${served.replicaCpu.toFixed(1)} µs CPU/call, nginx ${served.nginxCpu.toFixed(1)} µs CPU/call`,
      );
      return served;
    } finally {
      nginx.kill('SIGTERM');
    }
  } finally {
    for (const replica of replicas) await stopChild(replica);
  }
}

export const cluster: Scenario = {
  name: 'cluster',
  summary: `${REPLICAS} replicas behind nginx (deploy/nginx/wildtools.conf) against ${REPLICAS} × one process called directly; needs nginx`,
  async run(context) {
    if (!existsSync(NGINX)) {
      context.log(`    skipped: no nginx at ${NGINX} (apt-get install nginx)`);
      return [];
    }
    const dir = mkdtempSync(join(tmpdir(), 'wildtools-bench-cluster-'));
    const ratios: number[] = [];
    const behindOne: number[] = [];
    const replicaCost: number[] = [];
    const nginxCost: number[] = [];
    try {
      for (let round = 1; round <= context.rounds; round++) {
        context.log(`  round ${round}`);
        const child = await startChildServer(context.server, FIRST_PORT, { LOG_LEVEL: 'warn' });
        let single: number;
        let singleCpu: number;
        try {
          const result = await measureCost(reads(context, FIRST_PORT), context.load, () => [cpuMicros(child.pid!)]);
          single = result.perSecond;
          singleCpu = result.perCall[0]!;
        } finally {
          await stopChild(child);
        }
        context.log(`    ${'one process, called directly'.padEnd(52)} ${single.toFixed(0).padStart(7)}/s  ${singleCpu.toFixed(1)} µs CPU/call`);
        behindOne.push((await throughNginx(context, 1, dir)).perSecond / single);
        const two = await throughNginx(context, REPLICAS, dir);
        ratios.push(two.perSecond / (REPLICAS * single));
        replicaCost.push(singleCpu / two.replicaCpu);
        nginxCost.push(two.nginxCpu);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return [
      { scenario: 'cluster', metric: 'one replica behind nginx / one process', value: median(behindOne), unit: '×', rounds: behindOne },
      {
        scenario: 'cluster',
        metric: `${REPLICAS} replicas behind nginx / (${REPLICAS} × one process)`,
        value: median(ratios),
        unit: '×',
        target: { at: 'least', value: 0.8 },
        rounds: ratios,
        note: `${cpus().length} cores for the replicas, nginx and the load generator`,
      },
      {
        scenario: 'cluster',
        metric: `CPU per call: one process / each of ${REPLICAS} replicas`,
        value: median(replicaCost),
        unit: '×',
        rounds: replicaCost,
        note: '1 would mean no cost is shared; below 1, the replicas pay for sharing the cores (switches, fewer calls per wake-up)',
      },
      { scenario: 'cluster', metric: "nginx's CPU per call", value: median(nginxCost), unit: 'µs', rounds: nginxCost },
    ] satisfies Figure[];
  },
};
