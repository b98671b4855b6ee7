import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { orderId } from '../fields.js';
import { Order } from '../schema.js';
import { requireOrder, type RetailDb } from '../db.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { RETAIL_ERRORS } from '../errors.js';

export default defineTool({
  name: 'get_order_details',
  description: 'An order with its status, items (with prices and options), shipping address, fulfillments and payment history.',
  input: z.strictObject({ order_id: orderId }),
  output: Order,
  errors: codesOf(RETAIL_ERRORS, 'order_not_found'),
  mutates: false,
  example: { order_id: '#W5124601' },
  run: ({ order_id }, db: RetailDb) => requireOrder(db, order_id),
});
