import t from 'tap';
import { startServer } from '../../../helpers/server.js';
import { findUser, retailFixture } from '../../../helpers/retail.js';

const newAddress = { address1: '12 Harbor Road', address2: 'Suite 300', city: 'Boston', state: 'MA', country: 'USA', zip: '02110' };

t.test('modify_user_address', async (t) => {
  const server = await startServer(t);
  const diff = async (session: string) => (await server.request('GET', `/sessions/${session}/diff`)).body.retail;
  const user = findUser((u) => u.orders.length > 0);

  t.test("replaces the user's default address and returns the profile", async (t) => {
    const session = await server.newSession();
    const reply = await server.call('retail', 'modify_user_address', { user_id: user.user_id, ...newAddress }, session);
    t.equal(reply.status, 200);
    t.strictSame(reply.body, { ...user, address: newAddress });

    const after = (await server.state(session)).retail;
    t.strictSame(after.users[user.user_id], { ...user, address: newAddress }, 'the change sticks in the session');
    for (const orderId of user.orders) {
      t.strictSame(after.orders[orderId].address, retailFixture().orders[orderId]!.address, `order ${orderId} keeps its address`);
    }
    const changes = await diff(session);
    t.equal(changes.length, 1, 'one record changed');
    t.match(changes[0], { table: 'users', id: user.user_id, op: 'update' });

    const other = await server.newSession();
    t.strictSame((await server.state(other)).retail.users[user.user_id].address, user.address, 'other sessions do not see it');
  });

  t.test('an unknown user is "User not found" (404) and nothing changes', async (t) => {
    const session = await server.newSession();
    for (const user_id of ['nobody_0000', user.user_id.toUpperCase()]) {
      const reply = await server.call('retail', 'modify_user_address', { user_id, ...newAddress }, session);
      t.equal(reply.status, 404, user_id);
      t.equal(reply.body.detail, 'User not found');
    }
    t.same(await diff(session), [], 'no record changed');
  });

  t.test('invalid arguments answer 400 naming the fields, and change nothing', async (t) => {
    const session = await server.newSession();
    const missing = await server.call('retail', 'modify_user_address', { user_id: user.user_id }, session);
    t.equal(missing.status, 400);
    t.strictSame(missing.body.errors.map((e: any) => e.field).sort(), ['address1', 'address2', 'city', 'country', 'state', 'zip']);
    const cases = [
      { args: { user_id: user.user_id, ...newAddress, city: ['Boston'] }, field: 'city' },
      { args: { ...newAddress }, field: 'user_id' },
      { args: { user_id: user.user_id, ...newAddress, order_id: user.orders[0] }, field: 'order_id' },
    ];
    for (const { args, field } of cases) {
      const reply = await server.call('retail', 'modify_user_address', args, session);
      t.equal(reply.status, 400, field);
      t.strictSame(
        reply.body.errors.map((e: any) => e.field),
        [field],
      );
    }
    t.same(await diff(session), [], 'no record changed');
  });
});
