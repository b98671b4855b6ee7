import type { Scenario } from '../scenario.js';
import { ADDRESS, compare, comparisonFigures } from './compare.js';

/** Sessions the writes are spread over. */
export const WRITE_SESSIONS = 10;

export const write: Scenario = {
  name: 'write',
  summary: `a write tool call (modify_pending_order_address) over ${WRITE_SESSIONS} sessions, in memory, against bare fastify copying and replacing a record`,
  async run(context) {
    const body = { order_id: context.pendingOrderId, ...ADDRESS };
    const ours = {
      name: 'wildtools modify_pending_order_address',
      script: context.server,
      call: { path: '/retail/tools/modify_pending_order_address', body, sessions: WRITE_SESSIONS },
    };
    const bare = { name: 'bare fastify: parse, copy, change, put, send', script: 'bench/baseline.ts', call: { path: '/orders/address', body } };
    const result = await compare(ours, bare, context);
    return comparisonFigures('write', 'write call', result, 0.6);
  },
};
