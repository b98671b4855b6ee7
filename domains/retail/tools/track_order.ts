import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { toolError } from '../../errors.js';
import { RETAIL_ERRORS } from '../errors.js';
import { own } from '../../../lib/own.js';
import { orderId } from '../fields.js';
import { DERIVATION_SEED, deriveShipments } from '../derive.js';
import { OrderStatus, Shipment } from '../schema.js';
import { requireOrder, type RetailDb } from '../db.js';
import { codesOf } from '../../../lib/error-catalog.js';

export default defineTool({
  name: 'track_order',
  description:
    'Shipment tracking of an order: for each package, its carrier, service, status, estimated delivery, the ' +
    'events so far (oldest first) and the item ids it holds. An order that has not shipped yet (e.g. pending) has ' +
    'no shipments. Give tracking_id to see a single package.',
  input: z.strictObject({
    order_id: orderId,
    tracking_id: z.string().optional().describe("Tracking id of one of the order's packages (from its fulfillments); omit it for all of them."),
  }),
  output: z.object({
    order_id: z.string(),
    order_status: OrderStatus,
    estimated_delivery: z
      .string()
      .nullable()
      .describe(
        "The order's delivery date (ISO 8601 date) as set when it shipped: not updated when a carrier's estimate moves. " +
          'null when its packages have different dates, or none.',
      ),
    shipments: z.array(Shipment.extend({ item_ids: z.array(z.string()).describe('Item ids in this package; an id repeats per unit.') })),
  }),
  errors: codesOf(RETAIL_ERRORS, 'order_not_found', 'tracking_id_not_found'),
  mutates: false,
  example: { order_id: '#W8075079', tracking_id: '845475485471' },
  run({ order_id, tracking_id }, db: RetailDb) {
    const order = requireOrder(db, order_id);
    const packages = order.fulfillments.flatMap((fulfillment) => fulfillment.tracking_id.map((id) => ({ tracking_id: id, item_ids: fulfillment.item_ids })));
    const wanted = tracking_id === undefined ? packages : packages.filter((p) => p.tracking_id === tracking_id);
    if (wanted.length === 0 && tracking_id !== undefined) {
      throw toolError(RETAIL_ERRORS.tracking_id_not_found, 'Tracking id not found in this order');
    }
    const shipments = wanted.map(({ tracking_id: id, item_ids }) => {
      // Every fulfillment of the loaded data has its shipment; derive one for any that appeared since.
      const shipment = db.tracking.get(id) ?? own(deriveShipments({ [order_id]: order }, DERIVATION_SEED), id)!;
      return { ...shipment, events: shipment.events.map((event) => ({ ...event })), item_ids: [...item_ids] };
    });
    const dates = new Set(shipments.map((s) => s.estimated_delivery));
    const [date] = dates;
    return { order_id: order.order_id, order_status: order.status, estimated_delivery: dates.size === 1 ? (date ?? null) : null, shipments };
  },
});
