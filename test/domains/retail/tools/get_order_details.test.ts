import t from 'tap';
import { startServer } from '../../../helpers/server.js';
import { findOrder } from '../../../helpers/retail.js';

t.test('get_order_details', async (t) => {
  const server = await startServer(t);
  const order = findOrder((o) => o.status === 'pending' && o.items.length > 1);

  t.test('returns the whole order: items, address, fulfillments, payments and the null extras', async (t) => {
    const session = await server.newSession();
    const reply = await server.call('retail', 'get_order_details', { order_id: order.order_id }, session);
    t.equal(reply.status, 200);
    t.strictSame(reply.body, order);
    t.equal(reply.body.cancel_reason, null);
    t.same((await server.request('GET', `/sessions/${session}/diff`)).body.retail, [], 'a read changes nothing');
  });

  t.test('returns orders of every status', async (t) => {
    const session = await server.newSession();
    for (const status of ['delivered', 'cancelled', 'exchange requested', 'return requested', 'pending (item modified)'] as const) {
      const other = findOrder((o) => o.status === status);
      const reply = await server.call('retail', 'get_order_details', { order_id: other.order_id }, session);
      t.strictSame(reply.body, other, status);
    }
  });

  t.test("shows the session's changes, and only there", async (t) => {
    const session = await server.newSession();
    await server.call('retail', 'cancel_pending_order', { order_id: order.order_id, reason: 'no longer needed' }, session);
    t.equal((await server.call('retail', 'get_order_details', { order_id: order.order_id }, session)).body.status, 'cancelled');
    const other = await server.newSession();
    t.equal((await server.call('retail', 'get_order_details', { order_id: order.order_id }, other)).body.status, 'pending');
  });

  t.test('the "#" is part of the id; an unknown order is "Order not found" (404)', async (t) => {
    const session = await server.newSession();
    for (const order_id of [order.order_id.slice(1), '#W0000000', order.order_id.toLowerCase(), '']) {
      const reply = await server.call('retail', 'get_order_details', { order_id }, session);
      t.equal(reply.status, 404, order_id);
      t.equal(reply.body.detail, 'Order not found');
      t.equal(reply.body.code, 'order_not_found');
    }
  });

  t.test('invalid arguments answer 400 naming the field', async (t) => {
    const session = await server.newSession();
    const cases = [
      { args: {}, field: 'order_id' },
      { args: { order_id: 4817420 }, field: 'order_id' },
      { args: { order_ref: order.order_id }, field: 'order_id' },
      { args: { order_id: order.order_id, user_id: order.user_id }, field: 'user_id' },
    ];
    for (const { args, field } of cases) {
      const reply = await server.call('retail', 'get_order_details', args, session);
      t.equal(reply.status, 400, JSON.stringify(args));
      t.ok(
        reply.body.errors.some((e: any) => e.field === field),
        `names ${field}`,
      );
    }
  });
});
