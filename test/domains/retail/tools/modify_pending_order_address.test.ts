import t from 'tap';
import { startServer } from '../../../helpers/server.js';
import { findOrder } from '../../../helpers/retail.js';

const newAddress = { address1: '742 Cedar Lane', address2: 'Apt 5', city: 'Portland', state: 'OR', country: 'USA', zip: '97205' };

t.test('modify_pending_order_address', async (t) => {
  const server = await startServer(t);
  const diff = async (session: string) => (await server.request('GET', `/sessions/${session}/diff`)).body.retail;
  const pending = findOrder((o) => o.status === 'pending');

  t.test('replaces the address of a pending order and nothing else', async (t) => {
    const session = await server.newSession();
    const reply = await server.call('retail', 'modify_pending_order_address', { order_id: pending.order_id, ...newAddress }, session);
    t.equal(reply.status, 200);
    t.strictSame(reply.body, { ...pending, address: newAddress }, 'returns the order with the new address, status unchanged');

    const after = (await server.state(session)).retail;
    t.strictSame(after.orders[pending.order_id], { ...pending, address: newAddress }, 'the change sticks in the session');
    t.strictSame(
      after.users[pending.user_id].address,
      (await server.state('default')).retail.users[pending.user_id].address,
      "the user's default address is untouched",
    );
    const changes = await diff(session);
    t.equal(changes.length, 1, 'one record changed');
    t.match(changes[0], { table: 'orders', id: pending.order_id, op: 'update' });

    const other = await server.newSession();
    t.strictSame((await server.state(other)).retail.orders[pending.order_id].address, pending.address, 'other sessions do not see it');
  });

  t.test('accepts an order whose items were modified ("pending (item modified)")', async (t) => {
    const session = await server.newSession();
    const modified = findOrder((o) => o.status === 'pending (item modified)');
    const reply = await server.call('retail', 'modify_pending_order_address', { order_id: modified.order_id, ...newAddress }, session);
    t.equal(reply.status, 200);
    t.strictSame(reply.body, { ...modified, address: newAddress });
    t.equal((await server.state(session)).retail.orders[modified.order_id].status, 'pending (item modified)');
  });

  t.test('rules: a pending status and an existing order; nothing changes on error', async (t) => {
    const session = await server.newSession();
    const cases = [
      ...(['processed', 'delivered', 'cancelled', 'exchange requested', 'return requested'] as const).map((status) => ({
        order_id: findOrder((o) => o.status === status).order_id,
        status: 409,
        detail: 'Non-pending order cannot be modified',
        why: status,
      })),
      { order_id: '#W0000000', status: 404, detail: 'Order not found', why: 'unknown order' },
      { order_id: pending.order_id.slice(1), status: 404, detail: 'Order not found', why: 'id without #' },
    ];
    for (const { order_id, status, detail, why } of cases) {
      const reply = await server.call('retail', 'modify_pending_order_address', { order_id, ...newAddress }, session);
      t.equal(reply.status, status, why);
      t.equal(reply.body.detail, detail);
      t.match(reply.headers['content-type'], /application\/problem\+json/);
    }
    t.same(await diff(session), [], 'no record changed');
  });

  t.test('invalid arguments answer 400 naming the field, and change nothing', async (t) => {
    const session = await server.newSession();
    const { address2: _omitted, ...withoutAddress2 } = newAddress;
    const cases = [
      { args: { order_id: pending.order_id, ...withoutAddress2 }, field: 'address2' },
      { args: { order_id: pending.order_id, ...newAddress, zip: 97205 }, field: 'zip' },
      { args: { ...newAddress }, field: 'order_id' },
      { args: { order_id: pending.order_id, ...newAddress, address3: 'Floor 2' }, field: 'address3' },
    ];
    for (const { args, field } of cases) {
      const reply = await server.call('retail', 'modify_pending_order_address', args, session);
      t.equal(reply.status, 400, field);
      t.equal(reply.body.code, 'invalid_input');
      t.strictSame(
        reply.body.errors.map((e: any) => e.field),
        [field],
      );
    }
    t.same(await diff(session), [], 'no record changed');
  });
});
