import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { carrierField, orderIdField, trackingStatusField } from './answers.js';
import { retailTask } from './define.js';
import { customerOf, pickOrder, trackingIdsOf } from './picks.js';
import { orderWith, packagesOf } from './solving.js';

// An order with a package carried by UPS, whose tracking by order id the plan does not cover: each package is
// tracked by its own id, read from the order's fulfillments.

export default retailTask({
  id: 'retail/003',
  title: 'Track an order shipped in two packages',
  categories: ['multi-step'],
  pick({ db, random }) {
    const byUps = (ids: string[]) => ids.some((id) => db.tracking.get(id)?.carrier === 'UPS');
    const several = [...db.orders.values()].some((order) => trackingIdsOf(order).length > 1 && byUps(trackingIdsOf(order)));
    const { user, product } = pickOrder(db, random, 'order with a package carried by UPS', (order) => {
      const ids = trackingIdsOf(order);
      return byUps(ids) && (!several || ids.length > 1);
    });
    return { ...customerOf(user), product };
  },
  request: (given) =>
    `Hello, ${given.name} here, email ${given.email}. My order with the ${given.product} may come in several boxes. Where is each package, and when should ` +
    `each arrive?`,
  answer: z.strictObject({
    order_id: orderIdField('the order'),
    packages: field.set(
      z.strictObject({
        tracking_id: field.id("The package's tracking id."),
        carrier: carrierField,
        status: trackingStatusField,
        estimated_delivery: field.nullable(field.date("The carrier's delivery estimate, YYYY-MM-DD (null once delivered).")),
      }),
      'Every package of the order.',
    ),
  }),
  solve(tools, given) {
    const order = orderWith(tools, given.email, given.product);
    return { order_id: order.order_id, packages: packagesOf(tools, order.order_id) };
  },
  targets: [
    {
      kind: 'feature_limit',
      tool: 'track_order',
      recovery: "read the tracking ids from get_order_details' fulfillments and call track_order with each tracking_id",
    },
  ],
});
