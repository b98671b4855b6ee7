import t from 'tap';
import { startServer, type TestServer } from '../../helpers/server.js';
import { connectClient, FIND_USER, PRODUCT, protocolChecks, SEED, TASK, USER_ID } from '../../helpers/openenv.js';

// OpenEnv's JSON-RPC tool access: POST /openenv/mcp and `mcp` messages on the WebSocket. tools/list,
// tools/call (a step of the session's episode), openenv/session/create and close, and JSON-RPC errors.

const rpc = (server: TestServer, method: string, params?: Record<string, unknown>, headers?: Record<string, string>) =>
  server.request('POST', '/openenv/mcp', { jsonrpc: '2.0', id: 1, method, ...(params ? { params } : {}) }, headers);

const names = (tools: { name: string }[]) => tools.map((tool) => tool.name);

t.test('POST /openenv/mcp: the listing, sessions and tool calls', async (t) => {
  const server = await startServer(t);
  const combined = await rpc(server, 'tools/list');
  t.equal(combined.status, 200);
  t.same(names(combined.body.result.tools), names((await server.request('GET', '/tools')).body.tools), 'without a session: the combined listing');
  t.match(combined.body, { jsonrpc: '2.0', id: 1, result: { tools: [{ name: /\w/, description: /\w/, input_schema: { type: 'object' } }] } });

  const created = await rpc(server, 'openenv/session/create', { task: TASK, seed: SEED, kinds: [], episode_id: 'by-rpc' });
  t.match(created.body, { result: { session_id: 'by-rpc', observation: { session_id: 'by-rpc', step: 0, task: { id: TASK }, message: new RegExp(PRODUCT) } } });
  const { observation } = created.body.result;
  for (const [params, headers] of [
    [{ session_id: 'by-rpc' }, undefined],
    [undefined, { 'x-session-id': 'by-rpc' }],
  ] as const) {
    const listed = await rpc(server, 'tools/list', params, headers);
    t.same(listed.body.result.tools, observation.tools, `tools/list ${params ? 'by params.session_id' : 'by X-Session-Id'}: the session's tools`);
  }
  t.notSame(names(observation.tools), names(combined.body.result.tools), 'the domain’s, not the combined listing');

  const called = await rpc(server, 'tools/call', { session_id: 'by-rpc', name: FIND_USER.tool_name, arguments: FIND_USER.arguments });
  t.same(
    Object.keys(called.body.result).sort(),
    ['done', 'error', 'response', 'result', 'reward', 'tool_name'],
    'a step’s observation of the call, with its reward and end',
  );
  t.match(called.body.result, {
    tool_name: FIND_USER.tool_name,
    result: USER_ID,
    error: null,
    response: { status: 200, body: JSON.stringify(USER_ID) },
    reward: null,
    done: false,
  });
  const failed = await rpc(server, 'tools/call', { session_id: 'by-rpc', name: 'get_order_details', arguments: {} });
  const rest = await server.call('retail', 'get_order_details', {});
  t.match(failed.body.result, { error: { error_type: 'invalid_args' }, response: { status: rest.status, body: rest.text } }, 'a refused call is a result too');
  t.match((await server.request('GET', '/openenv/state?session_id=by-rpc')).body, { step_count: 2, calls: 2 }, 'each call is a step of the episode');

  const closed = await rpc(server, 'openenv/session/close', { session_id: 'by-rpc' });
  t.same(closed.body, { jsonrpc: '2.0', id: 1, result: { session_id: 'by-rpc', closed: true } });
  t.equal((await server.request('GET', '/sessions/by-rpc/journal')).status, 404, 'the session is gone');
});

t.test('POST /openenv/mcp: JSON-RPC errors', async (t) => {
  const server = await startServer(t);
  const created = await rpc(server, 'openenv/session/create', { task: TASK, seed: SEED, kinds: [] });
  const session_id: string = created.body.result.session_id;
  const cases = [
    [{ jsonrpc: '2.0', id: 7, method: 'tools/dance' }, -32601, /Method not found/, 7],
    [{ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { session_id } }, -32602, /name/, 8],
    [{ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { session_id, name: 'calculate', arguments: [1] } }, -32602, /arguments/, 9],
    [{ jsonrpc: '2.0', id: 10, method: 'tools/call', params: { name: 'calculate' } }, -32602, /session/, 10],
    [{ jsonrpc: '2.0', id: 11, method: 'openenv/session/close' }, -32602, /session_id/, 11],
    [{ jsonrpc: '2.0', id: 12, method: 'openenv/session/create', params: { max_steps: 'many' } }, -32602, /max_steps/, 12],
    [{ jsonrpc: '2.0', id: 13 }, -32600, /method/, null],
    [{ jsonrpc: '1.0', id: 14, method: 'tools/list' }, -32600, /jsonrpc/, null],
    [[{ jsonrpc: '2.0', id: 15, method: 'tools/list' }], -32600, /Invalid request/, null],
  ] as const;
  for (const [body, code, message, id] of cases) {
    const reply = await server.request('POST', '/openenv/mcp', body);
    t.equal(reply.status, 200, `${JSON.stringify(body)}: answered in JSON-RPC`);
    t.match(reply.body, { jsonrpc: '2.0', id, error: { code, message } }, `${JSON.stringify(body)}: ${code}`);
  }
  const unknown = await rpc(server, 'tools/call', { session_id: 'nobody', name: 'calculate', arguments: { expression: '1 + 1' } });
  t.match(
    unknown.body,
    { error: { code: -32602, message: /nobody/, data: { status: 404, code: 'session_not_found' } } },
    'an unknown session: the problem in data',
  );
  const listed = await rpc(server, 'tools/list', { session_id: 'nobody' });
  t.match(listed.body, { error: { code: -32602, data: { code: 'session_not_found' } } });
});

t.test('the same over the WebSocket: mcp messages act in the connection’s episode', async (t) => {
  const server = await startServer(t);
  const checks = await protocolChecks(t, server);
  const client = await connectClient(t, server, checks);
  const unbound = await client.mcp({ method: 'tools/list' });
  t.same(
    names((unbound['result'] as { tools: { name: string }[] }).tools),
    names((await server.request('GET', '/tools')).body.tools),
    'before reset: the combined listing',
  );
  const { observation } = await client.reset({ task: TASK, seed: SEED, kinds: [], episode_id: 'socket' });
  t.same(await client.mcp({ method: 'tools/list', id: 2 }), { jsonrpc: '2.0', id: 2, result: { tools: observation.tools } }, 'after: the session’s tools');
  const called = await client.mcp({ method: 'tools/call', params: { name: FIND_USER.tool_name, arguments: FIND_USER.arguments } });
  t.match(called, { id: 1, result: { tool_name: FIND_USER.tool_name, result: USER_ID, error: null, done: false } });
  t.match(await client.state(), { session_id: 'socket', step_count: 1, calls: 1 }, 'the call is a step of the connection’s episode');
  t.same(
    await client.mcp({ method: 'openenv/session/create', id: 3 }),
    { jsonrpc: '2.0', id: 3, result: { session_id: 'socket' } },
    'create: the bound session',
  );
  t.match(await client.mcp({ method: 'openenv/session/close', params: { session_id: 'socket' } }), { error: { code: -32600, message: /close/ } });
  await server.newSession({ id: 'elsewhere' });
  t.match(
    await client.mcp({ method: 'openenv/session/close', params: { session_id: 'elsewhere' } }),
    { error: { code: -32602, message: /not an OpenEnv episode/ } },
    'a session no reset started is not closed here (DELETE /sessions/{id} may need the admin token)',
  );
  t.equal((await server.request('GET', '/sessions/elsewhere/journal')).status, 200, 'it is still there');
  const other = await rpc(server, 'openenv/session/create', { task: TASK, seed: SEED, kinds: [] });
  t.match(
    await client.mcp({ method: 'openenv/session/close', params: { session_id: other.body.result.session_id } }),
    { result: { closed: true } },
    'another episode closes',
  );
  t.match(await client.mcp({ method: 'tools/dance' }), { error: { code: -32601 } });
  t.match(await client.mcp({ method: 'tools/call', params: {} }), { error: { code: -32602 } });
  t.match(await client.step({ type: 'list_tools' }), { done: false }, 'the episode goes on');
});
