import t from 'tap';
import { startServer } from '../../../helpers/server.js';
import { findUser, giftCardsOf } from '../../../helpers/retail.js';

t.test('get_user_details', async (t) => {
  const server = await startServer(t);
  const user = findUser((u) => giftCardsOf(u).length > 0 && Object.keys(u.payment_methods).length > 1 && u.orders.length > 1);

  t.test('returns the whole profile: name, address, email, payment methods and order ids', async (t) => {
    const session = await server.newSession();
    const reply = await server.call('retail', 'get_user_details', { user_id: user.user_id }, session);
    t.equal(reply.status, 200);
    const { email_primary, notice, ...profile } = reply.body;
    t.strictSame(profile, user);
    t.match(notice, /pending order|delivered order|default address/, `a notice about what the customer can do: ${notice}`);
    t.equal(email_primary, user.email, 'the legacy email_primary holds the email the migration carried over');
    t.strictSame(Object.keys(reply.body).slice(2, 5), ['address', 'email_primary', 'email'], 'the legacy member comes before the email');
    t.equal(reply.body.payment_methods[giftCardsOf(user)[0]!.id].balance, giftCardsOf(user)[0]!.balance, 'gift-card balances included');
    t.same((await server.request('GET', `/sessions/${session}/diff`)).body.retail, [], 'a read changes nothing');
  });

  t.test("shows the session's changes, and only there", async (t) => {
    const session = await server.newSession();
    const address = { address1: '1 Test Street', address2: '', city: 'Testville', state: 'TX', country: 'USA', zip: '00001' };
    t.equal((await server.call('retail', 'modify_user_address', { user_id: user.user_id, ...address }, session)).status, 200);
    t.strictSame((await server.call('retail', 'get_user_details', { user_id: user.user_id }, session)).body.address, address);
    const other = await server.newSession();
    t.strictSame((await server.call('retail', 'get_user_details', { user_id: user.user_id }, other)).body.address, user.address);
  });

  t.test('an unknown user is "User not found" (404)', async (t) => {
    const session = await server.newSession();
    for (const user_id of ['nobody_0000', user.user_id.toUpperCase(), user.email]) {
      const reply = await server.call('retail', 'get_user_details', { user_id }, session);
      t.equal(reply.status, 404, user_id);
      t.equal(reply.body.detail, 'User not found');
      t.equal(reply.body.code, 'user_not_found');
    }
  });

  t.test('invalid arguments answer 400 naming the field', async (t) => {
    const session = await server.newSession();
    const cases = [
      { args: {}, field: 'user_id' },
      { args: { user_id: 7 }, field: 'user_id' },
      { args: { user_id: user.user_id, verbose: true }, field: 'verbose' },
    ];
    for (const { args, field } of cases) {
      const reply = await server.call('retail', 'get_user_details', args, session);
      t.equal(reply.status, 400, JSON.stringify(args));
      t.equal(reply.body.errors[0].field, field);
    }
  });
});
