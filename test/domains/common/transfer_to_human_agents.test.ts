import t from 'tap';
import { startServer } from '../../helpers/server.js';

t.test('transfer_to_human_agents (shared, served under /retail)', async (t) => {
  const server = await startServer(t);

  t.test('returns "Transfer successful" and changes nothing', async (t) => {
    const session = await server.newSession();
    const before = await server.state(session);
    const reply = await server.call(
      'retail',
      'transfer_to_human_agents',
      { summary: 'Customer wants a refund to a closed card; policy does not allow it.' },
      session,
    );
    t.equal(reply.status, 200);
    t.equal(reply.body, 'Transfer successful');
    t.same((await server.request('GET', `/sessions/${session}/diff`)).body.retail, [], 'no record changed');
    t.strictSame(await server.state(session), before, 'the state is the same');
  });

  t.test('an empty summary is accepted, as in tau2-bench', async (t) => {
    const reply = await server.call('retail', 'transfer_to_human_agents', { summary: '' }, await server.newSession());
    t.same([reply.status, reply.body], [200, 'Transfer successful']);
  });

  t.test('invalid arguments answer 400 naming the field', async (t) => {
    const session = await server.newSession();
    const cases = [
      { args: {}, field: 'summary' },
      { args: { summary: 42 }, field: 'summary' },
      { args: { summary: 'help', priority: 'high' }, field: 'priority' },
    ];
    for (const { args, field } of cases) {
      const reply = await server.call('retail', 'transfer_to_human_agents', args, session);
      t.equal(reply.status, 400, JSON.stringify(args));
      t.strictSame(
        reply.body.errors.map((e: any) => e.field),
        [field],
      );
    }
  });
});
