import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { carrierField, orderIdField } from './answers.js';
import { retailTask } from './define.js';
import { customerOf, pickOrder, trackingIdsOf } from './picks.js';
import { orderWith, packagesOf } from './solving.js';

// A parcel on its way, one package: when it arrives is the carrier's estimate, not the order's date set when it shipped.

export default retailTask({
  id: 'retail/002',
  title: 'When a parcel arrives',
  categories: ['single-step'],
  pick({ db, random }) {
    const { user, product } = pickOrder(
      db,
      random,
      'order on its way in one package',
      (order) => trackingIdsOf(order).length === 1 && Boolean(db.tracking.get(trackingIdsOf(order)[0]!)?.estimated_delivery),
    );
    return { ...customerOf(user), product };
  },
  request: (given) => `Hi, I'm ${given.name} (${given.email}). When will my order with the ${given.product} arrive, and who is delivering it?`,
  answer: z.strictObject({
    order_id: orderIdField('the order'),
    tracking_id: field.id("The package's tracking id."),
    carrier: carrierField,
    estimated_delivery: field.date("When the package is expected: the carrier's estimate, YYYY-MM-DD."),
  }),
  solve(tools, given) {
    const order = orderWith(tools, given.email, given.product);
    const [parcel] = packagesOf(tools, order.order_id);
    return { order_id: order.order_id, tracking_id: parcel!.tracking_id, carrier: parcel!.carrier, estimated_delivery: parcel!.estimated_delivery! };
  },
  targets: [
    { kind: 'adhoc_rule', tool: 'track_order', recovery: "send the order id without the leading '#', as track_order's description says" },
    { kind: 'latency', tool: 'track_order', recovery: 'retry the read after the gateway timeout' },
    {
      kind: 'redundant',
      tool: 'track_order',
      recovery: "quote the shipment's estimated_delivery (the carrier's estimate), not the order's, which is not updated",
    },
  ],
});
