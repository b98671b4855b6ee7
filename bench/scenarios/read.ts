import type { Scenario } from '../scenario.js';
import { bareRead, compare } from './compare.js';

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
    return [
      {
        scenario: 'read',
        metric: 'read call / bare fastify',
        value: result.ratio,
        unit: '×',
        target: { at: 'least', value: 0.8 },
        rounds: result.rounds,
        note: `${result.ours.toFixed(0)} vs ${result.theirs.toFixed(0)} calls/s`,
      },
    ];
  },
};
