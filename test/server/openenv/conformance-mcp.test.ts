import t from 'tap';
import { EMAIL, FIND_USER, gone, ORDER, SEED, TASK, USER_ID } from '../../helpers/openenv.js';
import { callToolAction, listToolsAction, MCPToolClient } from '../../helpers/openenv/mcp-tool-client.js';
import { modelOf, TOOL_ERROR_TYPES } from '../../helpers/openenv/pydantic.js';
import { raisedBy } from '../../helpers/openenv/python.js';
import { ClientConnection } from '../../helpers/openenv/socket.js';
import { startServer, type TestServer } from '../../helpers/server.js';

// OpenEnv's MCPToolClient against /openenv (emulated in test/helpers/openenv/mcp-tool-client.ts): simulation
// mode, tools as steps over the WebSocket read into pydantic observations; production mode, JSON-RPC over
// HTTP POST /openenv/mcp in a session of its own; and JSON-RPC over the WebSocket /openenv/mcp, OpenEnv's
// @app.websocket("/mcp"). The conformance table is in conformance.test.ts.

const base = (server: TestServer) => `${server.origin}/openenv`;

const rpc = async (server: TestServer, method: string, params: Record<string, unknown> = {}) =>
  (await server.request('POST', '/openenv/mcp', { jsonrpc: '2.0', id: 1, method, params })).body;

const CALCULATE = { name: 'calculate', arguments: { expression: '2 + 3' } } as const;

t.test('MCPToolClient, simulation mode: reset, list_tools, call_tool, a failing call, step(ListToolsAction), state', async (t) => {
  const server = await startServer(t);
  const env = new MCPToolClient(base(server));
  t.teardown(() => env.close());

  const reset = await env.reset({ task: TASK, seed: SEED, kinds: [], episode_id: 'mcp-sim' });
  t.equal(modelOf(reset.observation), 'ListToolsObservation', 'the reset observation lists the tools');
  t.match(reset, { done: false, reward: null, observation: { done: false, reward: null, metadata: {} } });

  const tools = await env.listTools();
  t.ok(tools.length > 1, `list_tools: ${tools.length} tools`);
  t.ok(
    tools.every((tool) => modelOf(tool) === 'Tool' && typeof tool['description'] === 'string' && tool['input_schema'] !== null),
    'each a Tool (name, description, input_schema)',
  );
  t.same(
    tools.map((tool) => tool['name']),
    (reset.observation['tools'] as { name: string }[]).map((tool) => tool.name),
    'the tools of the reset',
  );
  const messages = env.log.length;
  t.equal(await env.listTools(), tools, 'a second list_tools is served from the cache');
  t.equal(env.log.length, messages, 'without a message');

  t.equal(await env.callTool(FIND_USER.tool_name, { email: EMAIL }), USER_ID, 'call_tool returns the result');
  const order = (await env.callTool('get_order_details', { order_id: ORDER })) as { order_id: string };
  t.equal(order.order_id, ORDER, 'a dict result without "data" as it is');

  const refused = await server.call('retail', 'get_order_details', {});
  const failed = await raisedBy(env.callTool('get_order_details', {}));
  t.equal(failed.pyType, 'RuntimeError');
  t.equal(failed.message, `Tool 'get_order_details' failed: ${refused.body.detail} (type: invalid_args)`, 'the message OpenEnv builds');
  const unknown = await raisedBy(env.callTool('no_such_tool', {}));
  t.match(unknown, { pyType: 'RuntimeError', message: /^Tool 'no_such_tool' failed: .+ \(type: tool_not_found\)$/ });

  const listed = await env.step(listToolsAction());
  t.equal(modelOf(listed.observation), 'ListToolsObservation', 'step(ListToolsAction): a ListToolsObservation');
  t.same(
    (listed.observation['tools'] as { name: string }[]).map((tool) => tool.name),
    tools.map((tool) => tool['name']),
  );
  const called = await env.step(callToolAction('calculate', CALCULATE.arguments));
  t.equal(modelOf(called.observation), 'CallToolObservation', 'step(CallToolAction): a CallToolObservation');
  t.match(called.observation, { tool_name: 'calculate', result: '5.0', error: null, done: false });

  const state = await env.state();
  t.equal(modelOf(state), 'State');
  t.same(state, { episode_id: 'mcp-sim', step_count: 7 }, 'state: episode_id and step_count');

  await env.close();
  const sent = env.log.filter((entry) => entry.direction === 'sent').map((entry) => entry.message);
  t.same(
    sent,
    [
      { type: 'reset', data: { task: TASK, seed: SEED, kinds: [], episode_id: 'mcp-sim' } },
      { type: 'step', data: { type: 'list_tools' } },
      { type: 'step', data: { type: 'call_tool', tool_name: FIND_USER.tool_name, arguments: { email: EMAIL } } },
      { type: 'step', data: { type: 'call_tool', tool_name: 'get_order_details', arguments: { order_id: ORDER } } },
      { type: 'step', data: { type: 'call_tool', tool_name: 'get_order_details', arguments: {} } },
      { type: 'step', data: { type: 'call_tool', tool_name: 'no_such_tool', arguments: {} } },
      { type: 'step', data: { type: 'list_tools' } },
      { type: 'step', data: { type: 'call_tool', tool_name: 'calculate', arguments: CALCULATE.arguments } },
      { type: 'state' },
      { type: 'close' },
    ],
    'the messages MCPToolClient sends',
  );
  t.ok(await gone(server, 'mcp-sim'), 'the episode ends with the connection');
});

t.test('MCPToolClient, production mode: session create, list_tools, call_tool, close', async (t) => {
  const server = await startServer(t);
  const env = new MCPToolClient(base(server), { useProductionMode: true });
  t.teardown(() => env.close());
  t.equal(env.productionMcpUrl(), `${server.origin}/openenv/mcp`, 'POST <base>/mcp');

  // OpenEnv swallows any failure of list_tools into []: a listing proves every step of it was read.
  const tools = await env.listTools();
  t.ok(tools.length > 1, `list_tools: ${tools.length} tools`);
  t.ok(
    tools.every((tool) => modelOf(tool) === 'Tool'),
    'each a Tool',
  );
  const sessionId = env.sessionId!;
  t.type(sessionId, 'string', 'openenv/session/create gave a session_id');
  const listed = await rpc(server, 'tools/list', { session_id: sessionId });
  t.same(
    tools.map((tool) => tool['name']),
    listed.result.tools.map((tool: { name: string }) => tool.name),
    "the session's tools",
  );

  const result = (await env.callTool(CALCULATE.name, CALCULATE.arguments)) as Record<string, any>;
  t.equal(result['tool_name'], 'calculate', 'call_tool: the result of tools/call');
  if (result['error'] === null) t.equal(result['result'], '5.0', 'the tool answered');
  else t.ok(TOOL_ERROR_TYPES.includes(result['error'].error_type), `a hazard: ${result['error'].error_type}`);

  await env.close();
  t.same(
    env.rpcLog,
    [
      { method: 'openenv/session/create', params: {} },
      { method: 'tools/list', params: { session_id: sessionId } },
      { method: 'tools/call', params: { name: 'calculate', arguments: CALCULATE.arguments, session_id: sessionId } },
      { method: 'openenv/session/close', params: { session_id: sessionId } },
    ],
    'the JSON-RPC requests MCPToolClient sends',
  );
  t.equal(env.sessionId, undefined, 'the client forgot its session');
  t.equal((await server.request('GET', `/sessions/${sessionId}/journal`)).status, 404, 'and the server closed it');
});

t.test('MCPToolClient, production mode: a JSON-RPC error raises "Tool … failed: …"', async (t) => {
  const server = await startServer(t);
  const env = new MCPToolClient(base(server), { useProductionMode: true });
  t.teardown(() => env.close());
  await env.listTools();
  const sessionId = env.sessionId!;
  t.match(await rpc(server, 'openenv/session/close', { session_id: sessionId }), { result: { closed: true } }, 'closed behind its back');
  const expected = await rpc(server, 'tools/call', { ...CALCULATE, session_id: sessionId });
  t.type(expected.error?.message, 'string', 'the server answers a JSON-RPC error');
  const error = await raisedBy(env.callTool(CALCULATE.name, CALCULATE.arguments));
  t.equal(error.pyType, 'RuntimeError');
  t.equal(error.message, `Tool 'calculate' failed: ${expected.error?.message}`, 'the message OpenEnv builds');
});

t.test('JSON-RPC over the WebSocket /openenv/mcp: a session per connection', async (t) => {
  const server = await startServer(t);
  const url = `${server.origin.replace('http://', 'ws://')}/openenv/mcp`;
  const open = async () => {
    const connection = await ClientConnection.open(url);
    t.teardown(() => connection.close());
    let id = 0;
    return {
      connection,
      request: async (method: string, params: Record<string, unknown> = {}) => {
        connection.send(JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }));
        const answer = JSON.parse(await connection.recv(10_000));
        t.match(answer, { jsonrpc: '2.0', id }, `${method}: a JSON-RPC response to request ${id}`);
        return answer;
      },
    };
  };
  const first = await open();
  const created = await first.request('openenv/session/create');
  const sessionId: string = created.result?.session_id;
  t.type(sessionId, 'string', "openenv/session/create: the connection's session");
  t.same((await first.request('openenv/session/create')).result, { session_id: sessionId }, 'the same session each time');
  t.equal((await server.request('GET', `/openenv/state?session_id=${encodeURIComponent(sessionId)}`)).status, 200, 'a live session');

  const listed = await first.request('tools/list');
  t.ok(listed.result?.tools?.length > 1, 'tools/list: the tools');
  const called = await first.request('tools/call', { ...CALCULATE });
  t.equal(called.result?.tool_name, 'calculate', 'tools/call: a step of the connection’s session');
  t.match(await first.request('tools/dance'), { error: { code: -32601 } }, 'an unknown method: -32601');

  const second = await open();
  const other = (await second.request('openenv/session/create')).result?.session_id;
  t.type(other, 'string');
  t.not(other, sessionId, 'another connection, another session');

  await first.connection.close();
  t.ok(await gone(server, sessionId), 'the session goes with its connection');
  t.equal((await server.request('GET', `/openenv/state?session_id=${encodeURIComponent(other)}`)).status, 200, 'the other stays');
});
