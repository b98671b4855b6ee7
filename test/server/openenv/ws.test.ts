import t from 'tap';
import { startServer } from '../../helpers/server.js';
import { CANCEL, connectClient, FIND_USER, gone, protocolChecks, READ_ORDER, rightAnswer, SEED, TASK, USER_ID } from '../../helpers/openenv.js';

// OpenEnv episodes over the WebSocket at /openenv/ws with the TypeScript client: hazards as observed,
// the listing, follow-up requests, the step limit, the state, and the session's life with the connection.

const MOST_TRIES = 6;

t.test('an episode over WebSocket with transport faults and transient failures ends with reward 1', async (t) => {
  const server = await startServer(t);
  const checks = await protocolChecks(t, server);
  const client = await connectClient(t, server, checks);
  const id = 'ws-faults';
  const first = await client.reset({
    task: TASK,
    seed: SEED,
    kinds: ['transient_failure'],
    episode_id: id,
    hazards: { tools: { retail__find_user_id_by_email: { transport_fault: 1 } } },
  });
  t.match(first, { done: false, reward: null, observation: { session_id: id, task: { id: TASK }, tools: [{ name: /\w/ }] } });

  const untilAnswered = async (action: typeof FIND_USER | typeof READ_ORDER) => {
    const tries = [];
    for (let attempt = 0; attempt < MOST_TRIES; attempt++) {
      const { observation } = await client.step(action);
      tries.push(observation);
      if (observation.error === null) break;
    }
    t.equal(tries.at(-1)!.error, null, `${action.tool_name} succeeds in the end`);
    return tries;
  };

  const finds = await untilAnswered(FIND_USER);
  t.equal(finds.at(-1)!.result, USER_ID);
  const faults = finds.slice(0, -1);
  t.ok(faults.length >= 1, `${faults.length} transport faults first`);
  const journal = await server.journal(id);
  for (const [index, observation] of faults.entries()) {
    t.equal(observation.error?.error_type, 'transport_error', `find ${index + 1}: a transport error`);
    const hazard = journal[index].hazards[0];
    t.match(hazard, { kind: 'transport_fault', tool: 'find_user_id_by_email' }, `find ${index + 1}: the journal records the hazard`);
    if (hazard.mode === 'reset' || hazard.mode === 'empty') t.equal(observation.response, null, `find ${index + 1}: ${hazard.mode}, no answer`);
    else {
      t.equal(observation.response?.status, 200, `find ${index + 1}: ${hazard.mode} under a 200`);
      t.throws(() => JSON.parse(observation.response!.body), `find ${index + 1}: the body is ${hazard.mode}`);
      t.equal(observation.result, null, `find ${index + 1}: no result`);
    }
  }

  const reads = await untilAnswered(READ_ORDER);
  t.ok(reads.length > 1, 'the read failed transiently first');
  for (const observation of reads.slice(0, -1)) t.equal(observation.error?.error_type, 'execution_error');
  const after = await server.journal(id);
  t.same(
    after.slice(finds.length, finds.length + reads.length - 1).map((entry: { hazards: { kind: string }[] }) => entry.hazards[0]?.kind),
    Array(reads.length - 1).fill('transient_failure'),
    'the journal records each transient failure',
  );
  const cancelled = await client.step(CANCEL);
  const last = await client.step(rightAnswer(cancelled.observation.result as never));
  t.match(last, { done: true, reward: 1, observation: { score: { success: true } } });
  t.match(await client.state(), { done: true, step_count: finds.length + reads.length + 2, calls: finds.length + reads.length + 2 });
});

t.test('list_tools and tools/list give the listing; the state counts steps and calls', async (t) => {
  const server = await startServer(t);
  const checks = await protocolChecks(t, server);
  const client = await connectClient(t, server, checks);
  const empty = await client.state();
  t.match(empty, { episode_id: null, session_id: null, step_count: 0 }, 'before reset: the empty state');
  const { observation } = await client.reset({ task: TASK, seed: SEED, kinds: [], max_steps: 9 });
  const listed = await client.step({ type: 'list_tools' });
  t.same(listed.observation.tools, observation.tools, 'list_tools: the tools of the reset');
  t.match(listed, { done: false, observation: { step: 1, tool_name: null, response: null } });
  const rpc = await client.mcp({ method: 'tools/list', id: 'listing' });
  t.same(rpc, { jsonrpc: '2.0', id: 'listing', result: { tools: observation.tools } }, 'tools/list in the session: the same');
  await client.step(FIND_USER);
  t.same(await client.state(), {
    episode_id: observation.session_id,
    session_id: observation.session_id,
    step_count: 2,
    task: TASK,
    seed: SEED,
    turn: 1,
    turns: 1,
    max_steps: 9,
    done: false,
    calls: 1,
  });
});

t.test('follow-ups: each answer but the last brings the next request', async (t) => {
  const server = await startServer(t);
  const checks = await protocolChecks(t, server);
  const tasks = (await server.request('GET', '/tasks?category=multi-mission')).body as { id: string; turns: number }[];
  const task = tasks.find((candidate) => candidate.turns > 1)!;
  t.ok(task, 'a multi-mission task');
  const instance = server.app.tasks.instance(task.id, 0);
  // What each turn is answered with: its reference answer (typed), or words (a task answered in words).
  const answerOf = (turn: number) => {
    const expected = instance.turns[turn]!.answer?.expected as Record<string, unknown> | undefined;
    return expected ? { type: 'answer' as const, answer: expected } : { type: 'answer' as const, text: `answer ${turn + 1}` };
  };
  const client = await connectClient(t, server, checks);
  const reset = await client.reset({ task: task.id, seed: 0, kinds: [] });
  t.match(reset.observation, { turn: 1, task: { turns: task.turns } });
  for (const [index, turn] of instance.turns.slice(1).entries()) {
    const next = await client.step(answerOf(index));
    t.match(next, { done: false, reward: null, observation: { message: turn.request, turn: index + 2, score: null } }, `answer ${index + 1}: the next request`);
    t.match(await client.state(), { turn: index + 2, done: false });
  }
  const last = await client.step(answerOf(instance.turns.length - 1));
  t.equal(last.done, true, 'the last answer ends the episode');
  t.ok(last.reward === 0 || last.reward === 1, 'with a reward');
  t.equal(last.observation.message, null);
  t.ok(last.observation.score, 'and the score');
});

t.test('max_steps: the last allowed step ends the episode with reward 0', async (t) => {
  const server = await startServer(t);
  const checks = await protocolChecks(t, server);
  const client = await connectClient(t, server, checks);
  await client.reset({ task: TASK, seed: SEED, kinds: [], max_steps: 2 });
  t.match(await client.step({ type: 'list_tools' }), { done: false, reward: null });
  const second = await client.step(FIND_USER);
  t.match(second, { done: true, reward: 0, observation: { step: 2, result: USER_ID, score: { success: false } } });
  t.match(await client.state(), { done: true, step_count: 2, max_steps: 2 });
});

t.test('the session goes with its connection unless reset keeps it; a second reset replaces the first session', async (t) => {
  const server = await startServer(t);
  const checks = await protocolChecks(t, server);
  const exists = async (id: string) => (await server.request('GET', `/sessions/${id}/journal`)).status === 200;

  const passing = await connectClient(t, server, checks);
  await passing.reset({ task: TASK, seed: SEED, kinds: [], episode_id: 'passing' });
  await passing.step(FIND_USER);
  t.ok(await exists('passing'), 'the session lives while the connection is open');
  await passing.close();
  t.ok(await gone(server, 'passing'), 'and is deleted when it closes');

  const kept = await connectClient(t, server, checks);
  await kept.reset({ task: TASK, seed: SEED, kinds: [], episode_id: 'kept', keep: true });
  await kept.step(FIND_USER);
  await kept.close();
  const other = await connectClient(t, server, checks);
  const { observation } = await other.reset({ task: TASK, seed: SEED, kinds: [] });
  await other.close();
  t.ok(await gone(server, observation.session_id), 'a later connection has closed and its session gone');
  t.equal((await server.journal('kept')).length, 1, 'keep: true: the session and its journal stay');
  t.match((await server.request('GET', '/sessions/kept/score')).status, 200);

  const twice = await connectClient(t, server, checks);
  await twice.reset({ task: TASK, seed: SEED, kinds: [], episode_id: 'first' });
  await twice.reset({ task: TASK, seed: SEED, kinds: [], episode_id: 'second' });
  t.notOk(await exists('first'), 'the second reset deleted the first session');
  t.match(await twice.state(), { session_id: 'second', step_count: 0 });
  await twice.step(FIND_USER);
  t.equal((await server.journal('second')).length, 1, 'steps go to the new session');
});
