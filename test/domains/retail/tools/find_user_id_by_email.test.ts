import t from 'tap';
import { startServer } from '../../../helpers/server.js';
import { findUser } from '../../../helpers/retail.js';

t.test('find_user_id_by_email', async (t) => {
  const server = await startServer(t);
  const user = findUser((u) => /[a-z]/.test(u.email));

  t.test('returns the bare user id of the email', async (t) => {
    const session = await server.newSession();
    const reply = await server.call('retail', 'find_user_id_by_email', { email: user.email }, session);
    t.equal(reply.status, 200);
    t.equal(reply.body, user.user_id);
    t.match(reply.headers['content-type'], /application\/json/);
  });

  t.test('matches regardless of case', async (t) => {
    const session = await server.newSession();
    for (const email of [user.email.toUpperCase(), user.email.replace(/^./, (c) => c.toUpperCase())]) {
      const reply = await server.call('retail', 'find_user_id_by_email', { email }, session);
      t.equal(reply.status, 200, email);
      t.equal(reply.body, user.user_id);
    }
  });

  t.test('an unknown email is "User not found" (404)', async (t) => {
    const session = await server.newSession();
    for (const email of ['nobody@example.invalid', user.email.replace('@', '@x'), '']) {
      const reply = await server.call('retail', 'find_user_id_by_email', { email }, session);
      t.equal(reply.status, 404, JSON.stringify(email));
      t.equal(reply.body.detail, 'User not found');
      t.equal(reply.body.code, 'user_not_found');
      t.match(reply.headers['content-type'], /application\/problem\+json/);
    }
  });

  t.test('a lookup changes nothing', async (t) => {
    const session = await server.newSession();
    await server.call('retail', 'find_user_id_by_email', { email: user.email }, session);
    t.same((await server.request('GET', `/sessions/${session}/diff`)).body.retail, []);
  });

  t.test('invalid arguments answer 400 naming the field', async (t) => {
    const session = await server.newSession();
    const cases = [
      { args: {}, field: 'email' },
      { args: { email: 42 }, field: 'email' },
      { args: { email: [user.email] }, field: 'email' },
      { args: { email: user.email, user_id: user.user_id }, field: 'user_id' },
    ];
    for (const { args, field } of cases) {
      const reply = await server.call('retail', 'find_user_id_by_email', args, session);
      t.equal(reply.status, 400, JSON.stringify(args));
      t.equal(reply.body.code, 'invalid_input');
      t.equal(reply.body.errors[0].field, field);
    }
  });
});
