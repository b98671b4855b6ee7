import t from 'tap';
import { OpenEnvClient, OpenEnvError } from '../../../client/openenv.js';
import { startServer } from '../../helpers/server.js';
import { connectClient, gone, protocolChecks, rawSocket, SEED, TASK } from '../../helpers/openenv.js';

// As many WebSocket episodes as the server has sessions: one more is refused with CAPACITY_REACHED
// until one ends; many at once each keep to their own session.

t.test('MAX_SESSIONS 2: two connections run, a third is refused, and after one closes a new one runs', async (t) => {
  const server = await startServer(t, { sessions: { maxSessions: 2 } });
  const checks = await protocolChecks(t, server);
  const first = await connectClient(t, server, checks);
  const second = await connectClient(t, server, checks);
  const a = await first.reset({ task: TASK, seed: SEED, kinds: [] });
  const b = await second.reset({ task: TASK, seed: SEED, kinds: [] });
  t.not(a.observation.session_id, b.observation.session_id, 'two episodes, two sessions');

  const third = await OpenEnvClient.connect(`${server.origin}/openenv`);
  t.teardown(() => third.close());
  const refused = await third.reset({ task: TASK, seed: SEED }).catch((error: unknown) => error);
  t.ok(refused instanceof OpenEnvError, 'the reset is rejected');
  t.match(refused, { code: 'CAPACITY_REACHED', data: { active_sessions: 2, max_sessions: 2 } });
  // The refusal, or the close that followed it: either way nothing more is answered.
  t.match(await third.state().catch((error: unknown) => error), { code: /^(CAPACITY_REACHED|CLOSED)$/ }, 'and the connection is over');

  await first.close();
  t.ok(await gone(server, a.observation.session_id), 'the first episode ended');
  const fourth = await connectClient(t, server, checks);
  t.match(await fourth.reset({ task: TASK, seed: SEED, kinds: [] }), { done: false, observation: { step: 0 } }, 'a new connection runs');
  t.match(await second.step({ type: 'list_tools' }), { done: false }, 'beside the second');
});

t.test('sessions made over HTTP count too: a reset beyond MAX_SESSIONS gets CAPACITY_REACHED', async (t) => {
  const server = await startServer(t, { sessions: { maxSessions: 2 } });
  const checks = await protocolChecks(t, server);
  await server.newSession({ id: 'by-http' });
  const one = await connectClient(t, server, checks);
  await one.reset({ task: TASK, seed: SEED, kinds: [] });
  const two = await connectClient(t, server, checks);
  const refused = await two.reset({ task: TASK, seed: SEED, kinds: [] }).catch((error: unknown) => error);
  t.match(refused, { code: 'CAPACITY_REACHED', data: { status: 503, problem: { code: 'session_limit' } } });
  t.equal((await server.request('DELETE', '/sessions/by-http')).status, 204);
  t.match(await two.reset({ task: TASK, seed: SEED, kinds: [] }), { done: false }, 'the same connection resets once a session is free');
});

t.test('50 connections at once each run an episode in its own session', async (t) => {
  const server = await startServer(t);
  const checks = await protocolChecks(t, server);
  const expression = (index: number, call: number) => `${index} * 100 + ${call}`;
  const runs = Array.from({ length: 50 }, async (_, index) => {
    const client = await connectClient(t, server, checks);
    const { observation } = await client.reset({ task: TASK, seed: SEED, kinds: [], keep: true });
    for (const call of [1, 2]) {
      const step = await client.step({ type: 'call_tool', tool_name: 'calculate', arguments: { expression: expression(index, call) } });
      t.equal(step.observation.result, `${index * 100 + call}.0`, `connection ${index}, call ${call}: its own result`);
    }
    const last = await client.step({ type: 'answer', answer: { order_id: `connection ${index}`, refunds: [] } });
    t.match(last, { done: true, reward: 0 });
    await client.close();
    return observation.session_id;
  });
  const sessions = await Promise.all(runs);
  t.equal(new Set(sessions).size, 50, '50 sessions');
  for (const [index, id] of sessions.entries()) {
    const journal = await server.journal(id);
    t.same(
      journal.map(
        (entry: { tool: string; args: { expression?: string; order_id?: string } }) => entry.args.expression ?? `${entry.tool} ${entry.args.order_id}`,
      ),
      [expression(index, 1), expression(index, 2), `submit_answer connection ${index}`],
      `connection ${index}: its journal holds its own two calls, then its answer`,
    );
  }
});

t.test('a connection idle for OPENENV_IDLE_TIMEOUT is closed, and its place freed', async (t) => {
  const server = await startServer(t, { sessions: { maxSessions: 1 }, openenvIdleMs: 300 });
  const socket = await rawSocket(t, server);
  socket.send(JSON.stringify({ type: 'state' }));
  t.equal((await socket.next()).type, 'state', 'a message keeps the connection alive');
  const other = await rawSocket(t, server);
  t.match(await other.next(), { type: 'error', data: { code: 'CAPACITY_REACHED' } }, 'while it holds the only place, another is refused');
  t.match(
    await socket.next(),
    { type: 'error', data: { code: 'SESSION_ERROR', message: /No message for 0 s \(OPENENV_IDLE_TIMEOUT\)/ } },
    'idle, it is told why',
  );
  t.equal(await socket.closed, 1001, 'and closed as going away');
  const next = await rawSocket(t, server);
  next.send(JSON.stringify({ type: 'state' }));
  t.equal((await next.next()).type, 'state', 'its place is free again');
});
