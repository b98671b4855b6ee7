import { KINDS } from '../../hazards/catalog.js';
import type { Scenario } from '../scenario.js';
import { bareRead, compare } from './compare.js';

/** Kinds that make a call wait on purpose: measuring them would measure their delay. */
const WAITING = new Set(['latency']);

export const hazards: Scenario = {
  name: 'hazards',
  summary: 'the read call with every hazard kind assigned to it switched on (latency excluded), against bare fastify',
  async run(context) {
    const kinds = KINDS.filter((kind) => !WAITING.has(kind));
    const ours = {
      name: 'wildtools get_order_details, hazards on',
      script: context.server,
      env: { HAZARDS: kinds.join(',') },
      call: { path: '/retail/tools/get_order_details', body: { order_id: context.orderId } },
      failuresExpected: true,
    };
    const result = await compare(ours, bareRead(context), context);
    return [
      {
        scenario: 'hazards',
        metric: 'read call, all hazards on / bare fastify',
        value: result.ratio,
        unit: '×',
        target: { at: 'least', value: 0.5 },
        rounds: result.rounds,
        note: `${result.ours.toFixed(0)} calls/s served (answers and faults) vs ${result.theirs.toFixed(0)}`,
      },
    ];
  },
};
