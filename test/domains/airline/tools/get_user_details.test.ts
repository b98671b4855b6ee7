import t from 'tap';
import { startServer } from '../../../helpers/server.js';
import { airlineFixture, findUser, methodsOf } from '../../../helpers/airline.js';

t.test('get_user_details', async (t) => {
  const server = await startServer(t);
  const user = findUser((u) => u.reservations.length > 0 && methodsOf(u, 'gift_card').length > 0);

  t.test('returns the whole profile as stored', async (t) => {
    const session = await server.newSession();
    const reply = await server.call('airline', 'get_user_details', { user_id: user.user_id }, session);
    t.equal(reply.status, 200);
    t.strictSame(reply.body, { ...user, notice: reply.body.notice }, 'the profile, with its account notice');
    t.match(reply.headers['content-type'], /application\/json/);
  });

  t.test('every profile shows one true account notice, the same on every read; they vary between customers', async (t) => {
    const session = await server.newSession();
    const users = Object.values(airlineFixture().users).slice(0, 60);
    const kinds = new Set<string>();
    for (const u of users) {
      const [first, second] = [
        await server.call('airline', 'get_user_details', { user_id: u.user_id }, session),
        await server.call('airline', 'get_user_details', { user_id: u.user_id }, session),
      ];
      t.equal(first.body.notice, second.body.notice, `${u.user_id}: the same notice on every read`);
      kinds.add(String(first.body.notice).split(/[: ]/)[0]!);
      if (/membership/.test(first.body.notice)) t.match(first.body.notice, new RegExp(`^${u.membership}`, 'i'), 'names their own membership');
    }
    t.ok(kinds.size >= 4, `several kinds of notice (${[...kinds].join(', ')})`);
  });

  t.test('resolves an id given with another case or surrounding spaces, as tau2-bench does', async (t) => {
    const session = await server.newSession();
    for (const user_id of [user.user_id.toUpperCase(), ` ${user.user_id} `]) {
      const reply = await server.call('airline', 'get_user_details', { user_id }, session);
      t.equal(reply.status, 200, JSON.stringify(user_id));
      t.equal(reply.body.user_id, user.user_id);
    }
  });

  t.test('an unknown user is "User {id} not found" (404)', async (t) => {
    const session = await server.newSession();
    for (const user_id of ['nobody_000', `${user.user_id}x`, '']) {
      const reply = await server.call('airline', 'get_user_details', { user_id }, session);
      t.equal(reply.status, 404, JSON.stringify(user_id));
      t.equal(reply.body.detail, `User ${user_id} not found`);
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
      const reply = await server.call('airline', 'get_user_details', args, session);
      t.equal(reply.status, 400, JSON.stringify(args));
      t.equal(reply.body.errors[0].field, field);
    }
  });

  t.test('the fixture has users with every kind of payment method', async (t) => {
    const users = Object.values(airlineFixture().users);
    for (const source of ['credit_card', 'gift_card', 'certificate'] as const)
      t.ok(
        users.some((u) => methodsOf(u, source).length > 0),
        source,
      );
  });
});
