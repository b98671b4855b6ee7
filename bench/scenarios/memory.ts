import { residentBytes, startChildServer, stopChild } from '../child-server.js';
import { burst } from '../load.js';
import type { Scenario } from '../scenario.js';
import { ADDRESS } from './compare.js';

const PORT = 18183;
const SESSIONS = 10_000;

export const memory: Scenario = {
  name: 'memory',
  summary: `resident memory with ${SESSIONS.toLocaleString('en')} live sessions that made two writes each`,
  async run(context) {
    const child = await startChildServer(context.server, PORT, { LOG_LEVEL: 'warn', MAX_SESSIONS: String(SESSIONS + 10) });
    try {
      const write = { port: PORT, path: '/retail/tools/modify_pending_order_address', body: { order_id: context.pendingOrderId, ...ADDRESS } };
      // Warm the server with writes in one session, then measure what each new session adds.
      await burst({ ...write, pathOf: () => `/s/warm${write.path}` }, context.load.connections, 2_000);
      const before = residentBytes(child);
      const result = await burst({ ...write, pathOf: (n) => `/s/memory-${n >> 1}${write.path}` }, context.load.connections, SESSIONS * 2);
      if (result.failed > 0 || result.errors > 0) throw new Error(`memory: ${result.failed} failed answers, ${result.errors} connection errors`);
      const live = (await (await fetch(`http://127.0.0.1:${PORT}/sessions`)).json()) as unknown[];
      if (live.length < SESSIONS) throw new Error(`memory: ${live.length} live sessions, ${SESSIONS} expected`);
      const after = residentBytes(child);
      context.log(`    RSS ${(before / 1_048_576).toFixed(0)} MB before, ${(after / 1_048_576).toFixed(0)} MB with ${SESSIONS} sessions`);
      return [
        {
          scenario: 'memory',
          metric: `RSS with ${SESSIONS.toLocaleString('en')} live sessions`,
          value: after / 1_048_576,
          unit: 'MB',
          target: { at: 'most', value: 1024 },
        },
        { scenario: 'memory', metric: 'memory per session (2 writes, their journal)', value: (after - before) / SESSIONS / 1024, unit: 'KB' },
      ];
    } finally {
      await stopChild(child);
    }
  },
};
