import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChildServer, stopChild } from '../child-server.js';
import { writeLargerRetail } from '../larger-database.js';
import { measure, median } from '../load.js';
import type { BenchContext, Scenario } from '../scenario.js';
import { measureFresh } from './compare.js';

const PORT = 18182;
/** Creation is measured over a shorter run than calls: every session created stays (about 2.5 KB each). */
const SECONDS = 5;

/** Sessions created per second (POST /sessions, no body) on a fresh server with these databases. */
async function creationRate(context: BenchContext, env: Record<string, string>): Promise<number> {
  const child = await startChildServer(context.server, PORT, { LOG_LEVEL: 'warn', MAX_SESSIONS: '1000000', ...env });
  try {
    const result = await measure({ port: PORT, path: '/sessions', method: 'POST' }, { ...context.load, seconds: SECONDS, warmup: 1 });
    if (result.failed > 0 || result.errors > 0) throw new Error(`session creation: ${result.failed} failed answers, ${result.errors} connection errors`);
    context.log(`    ${`POST /sessions${env['FIXTURE_RETAIL'] ? ', retail database ×10' : ''}`.padEnd(52)} ${result.perSecond.toFixed(0).padStart(7)}/s`);
    return result.perSecond;
  } finally {
    await stopChild(child);
  }
}

export const sessions: Scenario = {
  name: 'sessions',
  summary: 'sessions created per second against read calls per second, and with a retail database ten times larger',
  async run(context) {
    const dir = mkdtempSync(join(tmpdir(), 'wildtools-bench-'));
    const larger = join(dir, 'retail.json');
    const bytes = writeLargerRetail(larger, 10);
    try {
      const ratios: number[] = [];
      const sizes: number[] = [];
      for (let round = 1; round <= context.rounds; round++) {
        context.log(`  round ${round}`);
        const reads = await measureFresh(
          {
            name: 'wildtools get_order_details',
            script: context.server,
            call: { path: '/retail/tools/get_order_details', body: { order_id: context.orderId } },
          },
          context,
        );
        const created = await creationRate(context, {});
        const createdLarger = await creationRate(context, { FIXTURE_RETAIL: larger });
        ratios.push(created / reads.perSecond);
        sizes.push(createdLarger / created);
      }
      return [
        {
          scenario: 'sessions',
          metric: 'session creations / read calls',
          value: median(ratios),
          unit: '×',
          target: { at: 'least', value: 0.5 },
          rounds: ratios,
        },
        {
          scenario: 'sessions',
          metric: 'creations with a 10× retail database / default',
          value: median(sizes),
          unit: '×',
          rounds: sizes,
          note: `O(1) in database size: the retail file ${(bytes / 1_048_576).toFixed(1)} MB instead of 2.4 MB`,
        },
      ];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
