import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from '../load.js';
import type { Scenario } from '../scenario.js';
import { ADDRESS, measureFresh } from './compare.js';
import { WRITE_SESSIONS } from './write.js';

export const durable: Scenario = {
  name: 'durable',
  summary: `the write call with DATA_DIR (acknowledged once handed to the OS), and with DATA_FSYNC=1 (once on the disk)`,
  async run(context) {
    const dir = mkdtempSync(join(tmpdir(), 'wildtools-bench-'));
    const body = { order_id: context.pendingOrderId, ...ADDRESS };
    const writes = (env: Record<string, string>) => ({
      name: `wildtools write, ${env['DATA_FSYNC'] ? 'DATA_FSYNC=1' : 'DATA_DIR'}`,
      script: context.server,
      env,
      call: { path: '/retail/tools/modify_pending_order_address', body, sessions: WRITE_SESSIONS },
    });
    try {
      const rates = { process: [] as number[], fsync: [] as number[] };
      for (let round = 1; round <= context.rounds; round++) {
        context.log(`  round ${round}`);
        rates.process.push((await measureFresh(writes({ DATA_DIR: join(dir, `process-${round}`) }), context)).perSecond);
        rates.fsync.push((await measureFresh(writes({ DATA_DIR: join(dir, `fsync-${round}`), DATA_FSYNC: '1' }), context)).perSecond);
      }
      return [
        {
          scenario: 'durable',
          metric: 'writes/s with DATA_DIR',
          value: median(rates.process),
          unit: '/s',
          target: { at: 'least', value: 5000 },
          rounds: rates.process,
        },
        { scenario: 'durable', metric: 'writes/s with DATA_DIR and DATA_FSYNC=1', value: median(rates.fsync), unit: '/s', rounds: rates.fsync },
      ];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
