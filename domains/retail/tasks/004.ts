import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { orderIdField, orderStatusField } from './answers.js';
import { retailTask } from './define.js';
import { customerOf, pickOrder, trackingIdsOf } from './picks.js';
import { orderWith } from './solving.js';

// A shipped order while tracking is down: what the order itself says (its status, its packages' tracking
// ids) is what can be told; the carrier's status and estimate cannot.

export default retailTask({
  id: 'retail/004',
  title: 'Where is my order while tracking is down',
  categories: ['partial'],
  pick({ db, random }) {
    const { user, product } = pickOrder(db, random, 'shipped order on its way', (order) => order.status === 'processed' && trackingIdsOf(order).length > 0);
    return { ...customerOf(user), product };
  },
  request: (given) => `Hi, this is ${given.name} (${given.email}). Where is my order with the ${given.product} right now?`,
  answer: z.strictObject({
    order_id: orderIdField('the order'),
    status: orderStatusField('the order'),
    tracking_ids: field.set(field.id('A tracking id.'), "The tracking ids of the order's packages."),
  }),
  solve(tools, given) {
    const order = orderWith(tools, given.email, given.product);
    const tracked = tools.track_order({ order_id: order.order_id });
    return { order_id: order.order_id, status: tracked.order_status, tracking_ids: tracked.shipments.map((s) => s.tracking_id) };
  },
  targets: [
    {
      kind: 'outage',
      tool: 'track_order',
      recovery: "give the order's status and its package's tracking id from get_order_details, and say live tracking is unavailable right now",
      via: ['get_order_details'],
    },
  ],
});
