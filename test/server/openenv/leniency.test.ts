import t from 'tap';
import { sessionIdOf } from '../../../server/openenv/episodes.js';
import { CANCEL, FIND_USER, gone, protocolChecks, rawSocket, SEED, TASK, WRONG_ANSWER } from '../../helpers/openenv.js';
import { startServer } from '../../helpers/server.js';

// Where OpenEnv's clients and trainers rely on its server's leniency, ours is as lenient: no null where a
// client iterates or reads a name, unknown reset arguments ignored (and named), any episode id up to 255
// characters and free again once its episode closed, StepRequest's other members accepted; and what its
// validator and MCP client read: openapi.json, JSON-RPC over a WebSocket at /mcp, tasks with their splits.

const LONG_ID = `run 7 / rollout 3 — ${'é'.repeat(200)}`.slice(0, 255);

t.test('observations carry tools and tool_name only as a list and a name, never null', async (t) => {
  const server = await startServer(t);
  const checks = await protocolChecks(t, server);
  const step = async (session: string, action: unknown) =>
    checks.observed((await server.request('POST', '/openenv/step', { session_id: session, action })).body).observation;
  const reset = checks.observed((await server.request('POST', '/openenv/reset', { task: TASK, seed: SEED, kinds: [] })).body).observation;
  const id = reset.session_id;
  t.ok(Array.isArray(reset.tools) && reset.tools.length > 0, 'reset lists the tools');
  t.notOk('tool_name' in reset, 'reset names no tool');
  const call = await step(id, FIND_USER);
  t.equal(call.tool_name, FIND_USER.tool_name, 'a call names its tool');
  t.notOk('tools' in call, 'a call carries no tools member');
  const listing = await step(id, { type: 'list_tools' });
  t.ok(Array.isArray(listing.tools), 'list_tools lists');
  t.notOk('tool_name' in listing, 'list_tools names no tool');
  const answer = await step(id, WRONG_ANSWER);
  t.equal(answer.tool_name, 'submit_answer', 'a typed answer runs as submit_answer and names it');
  t.notOk('tools' in answer, 'and carries no tools member');
  for (const observation of [reset, call, listing, answer]) t.notOk(Object.values(observation).includes(undefined), 'no member is undefined');
});

t.test('unknown reset arguments are ignored and named; known ones are still checked', async (t) => {
  const server = await startServer(t);
  const extras = { task: TASK, seed: SEED, temperature: 0.7, dataset_row: { a: 1 }, __trainer: 'grpo' };
  const http = await server.request('POST', '/openenv/reset', extras);
  t.equal(http.status, 200, 'HTTP reset accepts them');
  t.same(http.body.observation.metadata, { ignored_kwargs: ['__trainer', 'dataset_row', 'temperature'] }, 'and names them, sorted');
  t.equal(http.body.observation.task.id, TASK, 'the known ones apply');
  const plain = await server.request('POST', '/openenv/reset', { task: TASK, seed: SEED });
  t.notOk('metadata' in plain.body.observation, 'no metadata when nothing was ignored');
  t.match(await server.request('POST', '/openenv/reset', { task: TASK, seed: 'x', temperature: 1 }), { status: 400, body: { errors: [{ field: 'seed' }] } });

  const socket = await rawSocket(t, server);
  socket.send(JSON.stringify({ type: 'reset', data: extras }));
  t.same((await socket.next()).data.observation.metadata, { ignored_kwargs: ['__trainer', 'dataset_row', 'temperature'] }, 'over the WebSocket too');
  socket.send(JSON.stringify({ type: 'reset', data: { task: TASK, seed: -1, temperature: 1 } }));
  t.match(await socket.next(), { type: 'error', data: { code: 'VALIDATION_ERROR', errors: [{ field: 'data.seed' }] } });

  const rpc = await server.request('POST', '/openenv/mcp', { jsonrpc: '2.0', id: 1, method: 'openenv/session/create', params: extras });
  t.same(rpc.body.result.observation.metadata, { ignored_kwargs: ['__trainer', 'dataset_row', 'temperature'] }, 'and over JSON-RPC');
});

t.test('an episode id is any string up to 255 characters, free again once its episode closed', async (t) => {
  const server = await startServer(t);
  const checks = await protocolChecks(t, server);
  const derived = sessionIdOf(LONG_ID);
  t.match(derived, /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'the session id derived from it is a safe one');
  t.equal(sessionIdOf('rollout-7'), 'rollout-7', 'a safe id is its own session id');
  t.not(sessionIdOf(`${LONG_ID.slice(0, -1)}x`), derived, 'another id, another session');

  const first = await server.request('POST', '/openenv/reset', { task: TASK, seed: SEED, episode_id: LONG_ID });
  t.equal(first.body.observation.session_id, derived);
  const state = checks.state((await server.request('GET', `/openenv/state?session_id=${derived}`)).body);
  t.equal(state.episode_id, LONG_ID, 'state reports the episode id as given');
  t.match(
    await server.request('POST', '/openenv/reset', { task: TASK, episode_id: LONG_ID }),
    { status: 409, body: { code: 'session_exists' } },
    'not twice at once',
  );
  t.match(await server.request('POST', '/openenv/reset', { episode_id: 'x'.repeat(256) }), { status: 400, body: { errors: [{ field: 'episode_id' }] } });
  const closed = await server.request('POST', '/openenv/mcp', { jsonrpc: '2.0', id: 2, method: 'openenv/session/close', params: { session_id: derived } });
  t.match(closed.body.result, { closed: true });
  t.equal((await server.request('POST', '/openenv/reset', { task: TASK, episode_id: LONG_ID })).status, 200, 'free again right after its close');

  // Over the WebSocket: close, then reconnect at once with the same id.
  for (let round = 0; round < 3; round++) {
    const socket = await rawSocket(t, server);
    socket.send(JSON.stringify({ type: 'reset', data: { task: TASK, seed: SEED, episode_id: 'ws episode' } }));
    const answer = await socket.next();
    t.equal(answer.type, 'observation', `round ${round}: the id is free`);
    socket.send(JSON.stringify({ type: 'state' }));
    t.equal(checks.state((await socket.next()).data).episode_id, 'ws episode', `round ${round}: its state`);
    socket.send(JSON.stringify({ type: 'close' }));
    await socket.closed;
  }
  t.ok(await gone(server, sessionIdOf('ws episode')), 'the last one went with its connection');
});

t.test("OpenEnv's validator reads openapi.json; tasks list the splits; JSON-RPC over a WebSocket at /mcp", async (t) => {
  const server = await startServer(t);
  const { status, body } = await server.request('GET', '/openenv/openapi.json');
  t.equal(status, 200);
  t.type(body.info.version, 'string', 'info.version');
  for (const path of ['/reset', '/step', '/state', '/health', '/metadata', '/schema', '/mcp', '/tasks'])
    t.ok(Object.hasOwn(body.paths, path), `${path} relative to the base URL`);
  t.notOk(
    Object.keys(body.paths).some((path) => !path.startsWith('/') || path.startsWith('/openenv')),
    'only the OpenEnv routes',
  );
  t.same(body.servers, [{ url: '/openenv' }]);

  const tasks = await server.request('GET', '/openenv/tasks?split=train&domain=retail');
  t.same(tasks.body.splits, { train: { first: 10_000, last: 2_147_483_647 } });
  t.ok(tasks.body.tasks.length > 0 && tasks.body.tasks.every((task: { domain: string }) => task.domain === 'retail'), 'the filtered tasks');
  t.same(Object.keys((await server.request('GET', '/openenv/tasks')).body.splits), ['train', 'test']);
  t.match(await server.request('GET', '/openenv/tasks?split=validation'), { status: 400, body: { errors: [{ field: 'split' }] } });

  t.match(await server.request('POST', '/openenv/mcp', {}), { status: 200, body: { jsonrpc: '2.0', error: { code: -32600 } } }, 'POST /mcp {} is JSON-RPC');

  const socket = await rawSocket(t, server, '/openenv/mcp');
  socket.send('{"jsonrpc": "2.0",');
  t.match(await socket.next(), { jsonrpc: '2.0', id: null, error: { code: -32700 } }, 'a parse error');
  socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'openenv/session/create', params: { task: TASK, seed: 3 } }));
  const created = await socket.next();
  t.match(created, { id: 1, result: { session_id: /\w/, observation: { task: { id: TASK, seed: 3 } } } }, 'session/create takes task and seed');
  const session = created.result.session_id;
  socket.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'openenv/session/create', params: { task: 'airline/001' } }));
  t.match(await socket.next(), { id: 2, result: { session_id: session } }, 'a connection has one session');
  socket.send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} }));
  t.ok(
    (await socket.next()).result.tools.some((tool: { name: string }) => tool.name === CANCEL.tool_name),
    "the task's tools",
  );
  socket.send(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'list_all_product_types', arguments: {} } }));
  t.match(await socket.next(), { id: 4, result: { tool_name: 'list_all_product_types', error: null, result: /Baseball Cap/ } }, 'a call runs in it');
  t.equal((await server.journal(session)).length, 1, 'journaled in its session');
  socket.send(JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/dance' }));
  t.match(await socket.next(), { id: 5, error: { code: -32601 } });

  const other = await rawSocket(t, server, '/openenv/mcp');
  other.send(JSON.stringify({ jsonrpc: '2.0', id: 'a', method: 'tools/list' }));
  t.ok((await other.next()).result.tools.length > 0, 'a first request other than create opens a session too');
  socket.send(JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'openenv/session/close', params: { session_id: session } }));
  t.match(await socket.next(), { id: 6, error: { code: -32600 } }, "a connection's own session is closed by closing it");
  t.equal((await server.request('GET', `/sessions/${session}/journal`)).status, 200, 'and it lives on');
});

t.test('the WebSocket at /mcp: its session goes when it closes', async (t) => {
  const server = await startServer(t);
  const socket = await rawSocket(t, server, '/openenv/mcp');
  socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'openenv/session/create', params: { task: TASK, seed: SEED } }));
  const session = (await socket.next()).result.session_id;
  t.equal((await server.request('GET', `/sessions/${session}/journal`)).status, 200, 'the session lives with the connection');
  socket.send(
    JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: FIND_USER.tool_name, arguments: { email: 'nobody@example.com' } } }),
  );
  t.match(await socket.next(), { id: 2, result: { error: { error_type: 'execution_error' } } }, "a refusal is the call's error, as on the step route");
  await socket.close();
  t.ok(await gone(server, session), 'and goes with it');
});
