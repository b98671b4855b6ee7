import t from 'tap';
import { expectRejections, startServer } from '../../../helpers/server.js';
import { findOrder, retailFixture } from '../../../helpers/retail.js';

const db = retailFixture();

t.test('track_order', async (t) => {
  const server = await startServer(t);
  const shipped = findOrder((order) => order.fulfillments.length > 1);
  const expected = shipped.fulfillments.flatMap((f) => f.tracking_id.map((id) => ({ ...db.tracking[id]!, item_ids: f.item_ids })));

  t.test('every package of the order, with its items', async (t) => {
    const reply = await server.call('retail', 'track_order', { order_id: shipped.order_id });
    t.equal(reply.status, 200);
    const dates = new Set(expected.map((s) => s.estimated_delivery));
    const estimated_delivery = dates.size === 1 ? [...dates][0] : null;
    t.same(reply.body, { order_id: shipped.order_id, order_status: shipped.status, estimated_delivery, shipments: expected });
    t.ok(reply.body.shipments.every((s: { order_id: string }) => s.order_id === shipped.order_id));
  });

  t.test("the order's date: its packages' one date, else null", async (t) => {
    const one = findOrder(
      (order) =>
        order.fulfillments.length === 1 &&
        order.fulfillments[0]!.tracking_id.length === 1 &&
        Boolean(db.tracking[order.fulfillments[0]!.tracking_id[0]!]?.estimated_delivery),
    );
    const reply = await server.call('retail', 'track_order', { order_id: one.order_id });
    t.equal(reply.body.estimated_delivery, reply.body.shipments[0].estimated_delivery);
    t.same(Object.keys(reply.body), ['order_id', 'order_status', 'estimated_delivery', 'shipments']);
  });

  t.test('one package by tracking id', async (t) => {
    const second = expected[1]!;
    const reply = await server.call('retail', 'track_order', { order_id: shipped.order_id, tracking_id: second.tracking_id });
    t.equal(reply.status, 200);
    t.same(reply.body.shipments, [second]);
    t.equal(reply.body.estimated_delivery, second.estimated_delivery, "the order's date is its one package's");
  });

  t.test('an order that has not shipped has no shipments', async (t) => {
    const pending = findOrder((order) => order.status === 'pending' && order.fulfillments.length === 0);
    const reply = await server.call('retail', 'track_order', { order_id: pending.order_id });
    t.equal(reply.status, 200);
    t.same(reply.body, { order_id: pending.order_id, order_status: 'pending', estimated_delivery: null, shipments: [] });
  });

  t.test('errors', async (t) => {
    const other = findOrder((order) => order.order_id !== shipped.order_id && order.fulfillments.length > 0);
    const cases = [
      { args: { order_id: shipped.order_id, tracking_id: other.fulfillments[0]!.tracking_id[0]! }, status: 404, detail: 'Tracking id not found in this order' },
      { args: { order_id: shipped.order_id, tracking_id: '000000000000' }, status: 404, detail: 'Tracking id not found in this order' },
      { args: { order_id: '#W0000000' }, status: 404, detail: 'Order not found' },
    ];
    await expectRejections(t, server, 'retail', 'track_order', cases);
    for (const args of [{}, { order_id: 8075079 }, { order_id: shipped.order_id, tracking_id: 42 }, { order_id: shipped.order_id, carrier: 'UPS' }]) {
      t.equal((await server.call('retail', 'track_order', args)).status, 400, JSON.stringify(args));
    }
    t.same((await server.request('GET', '/sessions/default/diff')).body.retail, [], 'read-only');
  });
});
