import { KINDS } from '../../hazards/catalog.js';
import type { Scenario } from '../scenario.js';
import { bareRead, compare, comparisonFigures } from './compare.js';

/** The kind that makes a call wait on purpose: measuring it would measure its delay. */
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
    return comparisonFigures('hazards', 'read call, all hazards on', result, 0.5);
  },
};
