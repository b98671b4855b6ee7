import t from 'tap';
import { expectRejections, startServer } from '../../../helpers/server.js';
import { findUser, patchedAirlineBases } from '../../../helpers/airline.js';

t.test('send_certificate', async (t) => {
  const server = await startServer(t);
  const diff = async (session: string) => (await server.request('GET', `/sessions/${session}/diff`)).body.airline;
  const user = findUser((u) => !Object.keys(u.payment_methods).some((id) => id.startsWith('certificate_322132')));

  t.test('adds certificate_3221322, then …23 and …24, to the user; a fourth is refused', async (t) => {
    const session = await server.newSession();
    const ids = ['certificate_3221322', 'certificate_3221323', 'certificate_3221324'];
    for (const [i, id] of ids.entries()) {
      const amount = 100 * (i + 1);
      const reply = await server.call('airline', 'send_certificate', { user_id: user.user_id, amount }, session);
      t.equal(reply.status, 200);
      t.equal(reply.body, `Certificate ${id} added to user ${user.user_id} with amount ${amount}.`);
    }
    const after = (await server.state(session)).airline.users[user.user_id];
    t.strictSame(after, {
      ...user,
      payment_methods: {
        ...user.payment_methods,
        certificate_3221322: { source: 'certificate', id: 'certificate_3221322', amount: 100 },
        certificate_3221323: { source: 'certificate', id: 'certificate_3221323', amount: 200 },
        certificate_3221324: { source: 'certificate', id: 'certificate_3221324', amount: 300 },
      },
    });
    const fourth = await server.call('airline', 'send_certificate', { user_id: user.user_id, amount: 50 }, session);
    t.equal(fourth.status, 409);
    t.equal(fourth.body.detail, 'Too many certificates');
    t.strictSame((await server.state(session)).airline.users[user.user_id], after, 'the refusal changes nothing');
    t.strictSame((await server.state(await server.newSession())).airline.users[user.user_id], user, 'other sessions do not see it');
  });

  t.test('the first free id is taken: a gap left by a used certificate is filled first', async (t) => {
    const bases = await patchedAirlineBases((db) => {
      db.users[user.user_id]!.payment_methods.certificate_3221323 = { source: 'certificate', id: 'certificate_3221323', amount: 40 };
    });
    const patched = await startServer(t, { bases });
    const session = await patched.newSession();
    const first = await patched.call('airline', 'send_certificate', { user_id: user.user_id, amount: 150 }, session);
    t.equal(first.body, `Certificate certificate_3221322 added to user ${user.user_id} with amount 150.`);
    const second = await patched.call('airline', 'send_certificate', { user_id: user.user_id, amount: 150 }, session);
    t.equal(second.body, `Certificate certificate_3221324 added to user ${user.user_id} with amount 150.`);
  });

  t.test('an unknown user is refused and nothing changes; a mis-cased id names the stored user', async (t) => {
    const session = await server.newSession();
    await expectRejections(
      t,
      server,
      'airline',
      'send_certificate',
      [{ args: { user_id: 'nobody_000', amount: 100 }, status: 404, detail: 'User nobody_000 not found' }],
      session,
    );
    t.same(await diff(session), [], 'no record changed');
    const reply = await server.call('airline', 'send_certificate', { user_id: user.user_id.toUpperCase(), amount: 100 }, session);
    t.equal(reply.body, `Certificate certificate_3221322 added to user ${user.user_id} with amount 100.`);
  });

  t.test('invalid arguments answer 400 naming the field, and change nothing', async (t) => {
    const session = await server.newSession();
    const cases = [
      { args: { amount: 100 }, field: 'user_id' },
      { args: { user_id: user.user_id }, field: 'amount' },
      { args: { user_id: user.user_id, amount: '100' }, field: 'amount' },
      { args: { user_id: user.user_id, amount: 99.5 }, field: 'amount' },
      { args: { user_id: user.user_id, amount: 0 }, field: 'amount' },
      { args: { user_id: user.user_id, amount: 100, reason: 'delay' }, field: 'reason' },
    ];
    for (const { args, field } of cases) {
      const reply = await server.call('airline', 'send_certificate', args, session);
      t.equal(reply.status, 400, JSON.stringify(args));
      t.strictSame(
        reply.body.errors.map((e: { field: string }) => e.field),
        [field],
      );
    }
    t.same(await diff(session), [], 'no record changed');
  });
});
