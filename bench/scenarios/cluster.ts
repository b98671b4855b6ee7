import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NGINX, startNginx } from '../../deploy/nginx.js';
import { startChildServer, stopChild } from '../child-server.js';
import { type Call, measure, median } from '../load.js';
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

/** `count` replicas (unpinned: they share the machine with nginx and the load) behind nginx, loaded through it. */
async function throughNginx(context: BenchContext, count: number, dir: string): Promise<number> {
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
      const result = await measure(reads(context, Number(LISTEN.split(':')[1])), context.load);
      if (result.failed > 0 || result.errors > 0) throw new Error(`cluster: ${result.failed} failed answers, ${result.errors} connection errors`);
      context.log(`    ${`${count} replica${count > 1 ? 's' : ''} behind nginx`.padEnd(52)} ${result.perSecond.toFixed(0).padStart(7)}/s`);
      return result.perSecond;
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
    try {
      for (let round = 1; round <= context.rounds; round++) {
        context.log(`  round ${round}`);
        const child = await startChildServer(context.server, FIRST_PORT, { LOG_LEVEL: 'warn' });
        let single: number;
        try {
          single = (await measure(reads(context, FIRST_PORT), context.load)).perSecond;
        } finally {
          await stopChild(child);
        }
        context.log(`    ${'one process, called directly'.padEnd(52)} ${single.toFixed(0).padStart(7)}/s`);
        behindOne.push((await throughNginx(context, 1, dir)) / single);
        ratios.push((await throughNginx(context, REPLICAS, dir)) / (REPLICAS * single));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const figures: Figure[] = [
      { scenario: 'cluster', metric: 'one replica behind nginx / one process', value: median(behindOne), unit: '×', rounds: behindOne },
      {
        scenario: 'cluster',
        metric: `${REPLICAS} replicas behind nginx / (${REPLICAS} × one process)`,
        value: median(ratios),
        unit: '×',
        target: { at: 'least', value: 0.8 },
        rounds: ratios,
        note: `${REPLICAS} cores: the replicas share them with nginx and the load generator`,
      },
    ];
    return figures;
  },
};
