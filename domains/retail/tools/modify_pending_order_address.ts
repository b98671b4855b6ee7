import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { conflict } from '../../errors.js';
import { addressFields, orderId } from '../fields.js';
import { Order } from '../schema.js';
import { isPendingLoose, requireOrder, type RetailDb } from '../db.js';

export default defineTool({
  name: 'modify_pending_order_address',
  description:
    'Change the shipping address of a pending order (also after its items were modified). Explain the change and get ' +
    'an explicit "yes" from the customer first. Returns the updated order.',
  input: z.strictObject({ order_id: orderId, ...addressFields }),
  output: Order,
  mutates: true,
  effect: { destructive: true, idempotent: true },
  run({ order_id, address1, address2, city, state, country, zip }, db: RetailDb) {
    if (!isPendingLoose(requireOrder(db, order_id))) throw conflict('Non-pending order cannot be modified', 'order_not_pending');
    const order = db.orders.edit(order_id)!;
    order.address = { address1, address2, city, country, state, zip };
    return order;
  },
});
