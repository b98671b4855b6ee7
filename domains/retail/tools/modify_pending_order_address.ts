import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { toolError } from '../../errors.js';
import { RETAIL_ERRORS } from '../errors.js';
import { addressFields, orderId } from '../fields.js';
import { Order } from '../schema.js';
import { isPendingLoose, requireOrder, type RetailDb } from '../db.js';
import { codesOf } from '../../../lib/error-catalog.js';

export default defineTool({
  name: 'modify_pending_order_address',
  description:
    'Change the shipping address of a pending order (also after its items were modified). Explain the change and get ' +
    'an explicit "yes" from the customer first. Returns the updated order.',
  input: z.strictObject({ order_id: orderId, ...addressFields }),
  output: Order,
  errors: codesOf(RETAIL_ERRORS, 'order_not_found', 'order_not_pending'),
  mutates: true,
  effect: { destructive: true, idempotent: true },
  example: { order_id: '#W5124601', address1: '1 Main St', address2: '', city: 'Austin', state: 'TX', country: 'USA', zip: '78701' },
  run({ order_id, address1, address2, city, state, country, zip }, db: RetailDb) {
    if (!isPendingLoose(requireOrder(db, order_id))) throw toolError(RETAIL_ERRORS.order_not_pending, 'Non-pending order cannot be modified');
    const order = db.orders.edit(order_id)!;
    order.address = { address1, address2, city, country, state, zip };
    return order;
  },
});
