import type { Scenario } from '../scenario.js';
import { bareRead, compare, comparisonFigures } from './compare.js';

export const read: Scenario = {
  name: 'read',
  summary: 'a read tool call (get_order_details), hazards off, all domains loaded, against bare fastify doing the same read',
  async run(context) {
    const ours = {
      name: 'wildtools get_order_details',
      script: context.server,
      call: { path: '/retail/tools/get_order_details', body: { order_id: context.orderId } },
    };
    const result = await compare(ours, bareRead(context), context);
    return comparisonFigures('read', 'read call', result, 0.8);
  },
};
