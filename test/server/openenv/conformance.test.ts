import t, { type Test } from 'tap';
import { CANCEL, EMAIL, FIND_USER, gone, ORDER, rawSocket, rightAnswer, SEED, TASK, USER_ID } from '../../helpers/openenv.js';
import { GenericEnvClient } from '../../helpers/openenv/generic-client.js';
import { MCPToolClient } from '../../helpers/openenv/mcp-tool-client.js';
import { unreadableMembers } from '../../helpers/openenv/observation-rules.js';
import { raisedBy } from '../../helpers/openenv/python.js';
import { SyncEnvClient } from '../../helpers/openenv/sync-client.js';
import { validateRunningEnvironment } from '../../helpers/openenv/validator.js';
import { startServer, type TestServer } from '../../helpers/server.js';

// OpenEnv's own clients against /openenv, message by message, as emulated in test/helpers/openenv/ from
// OpenEnv 385de5eb (GenericEnvClient, SyncEnvClient, the WebSocket errors, parallel episodes and the
// runtime validator; MCPToolClient in conformance-mcp.test.ts; reset arguments, episode ids and the other
// routes in conformance-episodes.test.ts). "conforms" is what the tests assert: a row that does not hold
// fails its test.
//
// | message or criterion                                           | client                                | conforms |
// |----------------------------------------------------------------|---------------------------------------|----------|
// | reset {task, seed, episode_id}                                 | GenericEnvClient                      | yes      |
// | step, dict actions (call_tool, untyped, list_tools, answer)    | GenericEnvClient                      | yes      |
// | state (the dict as sent)                                       | GenericEnvClient                      | yes      |
// | close ({"type": "close"}, then the socket)                     | GenericEnvClient                      | yes      |
// | reset (read as ListToolsObservation)                           | MCPToolClient, simulation             | yes      |
// | list_tools() (step list_tools; cached after)                   | MCPToolClient, simulation             | yes      |
// | call_tool(name, **kwargs), success                             | MCPToolClient, simulation             | yes      |
// | call_tool failing: RuntimeError "Tool 'x' failed: m (type: t)" | MCPToolClient, simulation             | yes      |
// | step(ListToolsAction), step(CallToolAction)                    | MCPToolClient, simulation             | yes      |
// | state (State: episode_id, step_count)                          | MCPToolClient, simulation             | yes      |
// | openenv/session/create (no params)                             | MCPToolClient, production             | yes      |
// | tools/list {session_id}                                        | MCPToolClient, production             | yes      |
// | tools/call {name, arguments, session_id}                       | MCPToolClient, production             | yes      |
// | JSON-RPC error: RuntimeError "Tool 'x' failed: m"              | MCPToolClient, production             | yes      |
// | openenv/session/close {session_id}                             | MCPToolClient, production             | yes      |
// | reset, step, state, close: same messages, call order           | SyncEnvClient (.sync())               | yes      |
// | list_tools, call_tool through __getattr__                      | SyncEnvClient over MCPToolClient      | yes      |
// | {"type": "error"}: RuntimeError "Server error: m (code: c)"    | EnvClient (every client)              | yes      |
// | eight parallel episodes stay isolated                          | GenericEnvClient x 8                  | yes      |
// | reset with unknown kwargs (WS, HTTP, JSON-RPC): ignored, named | GenericEnvClient, MCPToolClient, HTTP | yes      |
// | episode_id of 1-255 characters, reported as given              | GenericEnvClient                      | yes      |
// | episode_id reused after close; a live duplicate refused        | GenericEnvClient, JSON-RPC            | yes      |
// | POST /step with StepRequest fields and extra ones              | HTTP (OpenEnv's StepRequest)          | yes      |
// | openenv/session/create {task, seed} / {}                       | JSON-RPC over HTTP                    | yes      |
// | tools/list, tools/call, session/create on WS /mcp              | JSON-RPC over WebSocket               | yes      |
// | openapi_version_available                                      | validate_running_environment          | yes      |
// | health_endpoint                                                | validate_running_environment          | yes      |
// | metadata_endpoint                                              | validate_running_environment          | yes      |
// | schema_endpoint                                                | validate_running_environment          | yes      |
// | mcp_endpoint                                                   | validate_running_environment          | yes      |
// | mode_endpoint_consistency (simulation)                         | validate_running_environment          | yes      |

const base = (server: TestServer) => `${server.origin}/openenv`;

/** The messages a client sent, in order. */
const sent = (client: { log: { direction: string; message: unknown }[] }) =>
  client.log.filter((entry) => entry.direction === 'sent').map((entry) => entry.message);

/** Asserts the observation carries no member that OpenEnv's MCPToolClient could not read (tools: null, tool_name: null). */
function readable(t: Test, observation: unknown, what: string): Record<string, any> {
  t.same(unreadableMembers(observation), [], `${what}: tools only as a list, tool_name only as a string`);
  return observation as Record<string, any>;
}

t.test('GenericEnvClient: reset with task and seed, dict actions, state, close', async (t) => {
  const server = await startServer(t);
  const env = new GenericEnvClient(base(server));
  t.teardown(() => env.close());
  t.equal(env.wsUrl, `${server.origin.replace('http://', 'ws://')}/openenv/ws`, 'connects to <base>/ws');

  const reset = await env.reset({ task: TASK, seed: SEED, kinds: [], episode_id: 'generic' });
  t.match(reset, { done: false, reward: null }, 'reset: done False, reward None');
  const first = readable(t, reset.observation, 'reset');
  t.match(first, { session_id: 'generic', step: 0, task: { id: TASK, seed: SEED } }, 'the task at the seed asked for');
  t.ok(Array.isArray(first['tools']) && first['tools'].length > 0, 'reset lists the tools');
  t.notOk('tool_name' in first, 'no tool_name on reset');

  const found = await env.step({ ...FIND_USER });
  t.match(found, { done: false, reward: null, observation: { tool_name: FIND_USER.tool_name, result: USER_ID, error: null } });
  t.notOk('tools' in readable(t, found.observation, 'call_tool'), 'no tools after a call');
  const untyped = await env.step({ tool_name: 'get_order_details', arguments: { order_id: ORDER } });
  t.match(untyped.observation, { tool_name: 'get_order_details', result: { order_id: ORDER } }, 'an action without a type is a tool call');
  readable(t, untyped.observation, 'untyped call');
  const listed = await env.step({ type: 'list_tools' });
  t.same(readable(t, listed.observation, 'list_tools')['tools'], first['tools'], 'list_tools: the tools of the reset');
  t.notOk('tool_name' in (listed.observation as object), 'no tool_name on list_tools');

  const cancelled = await env.step({ ...CANCEL });
  const answered = await env.step({ ...rightAnswer((cancelled.observation as { result: never }).result) });
  t.match(answered, { done: true, reward: 1, observation: { tool_name: 'submit_answer', score: { success: true } } }, 'the answer runs as submit_answer');
  readable(t, answered.observation, 'answer');

  t.match(await env.state(), { episode_id: 'generic', step_count: 5, task: TASK, seed: SEED, done: true }, 'state: the dict as sent');
  await env.close();
  t.same(
    sent(env).map((message) => (message as { type: string }).type),
    ['reset', 'step', 'step', 'step', 'step', 'step', 'state', 'close'],
    'one message per call, then close',
  );
  t.ok(await gone(server, 'generic'), 'close ends the episode');
});

t.test('SyncEnvClient: the same messages, one call at a time in call order', async (t) => {
  const server = await startServer(t);
  const script = [{ task: TASK, seed: SEED, kinds: [] }, { ...FIND_USER }, { type: 'list_tools' }] as const;

  const direct = new GenericEnvClient(base(server));
  const directResults = [await direct.reset(script[0]), await direct.step(script[1]), await direct.step(script[2]), await direct.state()];
  await direct.close();

  const sync = new SyncEnvClient(new GenericEnvClient(base(server)));
  await sync.connect();
  // Made without waiting: the wrapper's one loop runs them in the order they were made.
  const syncResults = await Promise.all([sync.reset(script[0]), sync.step(script[1]), sync.step(script[2]), sync.state()]);
  await sync.close();

  t.same(sent(sync.asyncClient), sent(direct), 'the messages the async client sends, in the same order');
  const received = (client: GenericEnvClient) =>
    client.log.filter((entry) => entry.direction === 'received').map((entry) => (entry.message as { type: string }).type);
  t.same(received(sync.asyncClient), ['observation', 'observation', 'observation', 'state'], 'each answered in turn');
  t.same(received(direct), received(sync.asyncClient));
  t.match(syncResults[1], { observation: { result: USER_ID } });
  t.same(
    (syncResults[2].observation as { tools: unknown }).tools,
    (directResults[2] as { observation: { tools: unknown } }).observation.tools,
    'the same listing',
  );
  t.match(syncResults[3], { step_count: 2, task: TASK });

  const mcp = new SyncEnvClient(new MCPToolClient(base(server)));
  await mcp.connect();
  await mcp.reset({ task: TASK, seed: SEED, kinds: [] });
  const tools = await mcp.delegate((client) => client.listTools());
  t.ok(
    tools.some((tool) => tool['name'] === FIND_USER.tool_name),
    'list_tools through the wrapper',
  );
  t.equal(await mcp.delegate((client) => client.callTool(FIND_USER.tool_name, { email: EMAIL })), USER_ID, 'call_tool through the wrapper');
  await mcp.close();
  t.same(
    sent(mcp.asyncClient),
    [
      { type: 'reset', data: { task: TASK, seed: SEED, kinds: [] } },
      { type: 'step', data: { type: 'list_tools' } },
      { type: 'step', data: { type: 'call_tool', tool_name: FIND_USER.tool_name, arguments: { email: EMAIL } } },
      { type: 'close' },
    ],
    'MCPToolClient through the wrapper: its messages',
  );
});

t.test('{"type": "error"} answers raise the RuntimeError OpenEnv builds; the connection goes on', async (t) => {
  const server = await startServer(t);
  const raw = await rawSocket(t, server);
  const env = new GenericEnvClient(base(server));
  t.teardown(() => env.close());
  const codes = ['INVALID_JSON', 'UNKNOWN_TYPE', 'VALIDATION_ERROR', 'EXECUTION_ERROR', 'CAPACITY_REACHED', 'FACTORY_ERROR', 'SESSION_ERROR'];

  const cases: [string, () => Promise<unknown>, Record<string, unknown>, RegExp][] = [
    ['a step before reset', () => env.step({ type: 'list_tools' }), { type: 'step', data: { type: 'list_tools' } }, /reset/],
    ['a bad seed', () => env.reset({ task: TASK, seed: 'not a seed' }), { type: 'reset', data: { task: TASK, seed: 'not a seed' } }, /seed/],
    ['an unknown task', () => env.reset({ task: 'retail/none' }), { type: 'reset', data: { task: 'retail/none' } }, /retail\/none|task/],
  ];
  for (const [what, call, message, names] of cases) {
    raw.send(JSON.stringify(message));
    const answer = await raw.next();
    t.equal(answer.type, 'error', `${what}: an error message`);
    t.ok(codes.includes(answer.data.code), `${what}: a WSErrorCode (${answer.data.code})`);
    const error = await raisedBy(call());
    t.equal(error.pyType, 'RuntimeError', `${what}: RuntimeError`);
    t.equal(error.message, `Server error: ${answer.data.message} (code: ${answer.data.code})`, `${what}: the text OpenEnv builds`);
    t.match(error.message, names, `${what}: names the problem`);
  }
  const after = await env.reset({ task: TASK, seed: SEED });
  t.match(after, { done: false, observation: { task: { id: TASK } } }, 'the connection still serves');
  const unknown = await env.step({ type: 'call_tool', tool_name: 'no_such_tool', arguments: {} });
  t.match(unknown.observation, { tool_name: 'no_such_tool', error: { error_type: 'tool_not_found' } }, 'an unknown tool is observed, not an error message');
});

t.test('eight parallel episodes stay isolated', async (t) => {
  const server = await startServer(t);
  const clients = Array.from({ length: 8 }, () => new GenericEnvClient(base(server)));
  t.teardown(() => Promise.all(clients.map((client) => client.close())));
  const episodes = await Promise.all(
    clients.map(async (env, index) => {
      const id = `parallel-${index}`;
      const reset = await env.reset({ task: TASK, seed: SEED, kinds: [], episode_id: id });
      for (let step = 0; step < index; step++) await env.step({ type: 'list_tools' });
      const cancel = await env.step({ ...CANCEL });
      return { id, index, reset, cancel, state: (await env.state()) as Record<string, unknown> };
    }),
  );
  for (const { id, index, reset, cancel, state } of episodes) {
    t.equal((reset.observation as { session_id: string }).session_id, id, `${id}: its own session`);
    t.match(cancel.observation, { error: null, result: { order_id: ORDER, status: 'cancelled' } }, `${id}: its own order to cancel`);
    t.match(state, { episode_id: id, step_count: index + 1, calls: 1 }, `${id}: its own steps`);
    t.equal((await server.journal(id)).length, 1, `${id}: its own journal`);
  }
  await Promise.all(clients.map((client) => client.close()));
  for (const { id } of episodes) t.ok(await gone(server, id), `${id}: closed with its connection`);
});

t.test("OpenEnv's runtime validator: all six criteria at /openenv", async (t) => {
  const server = await startServer(t);
  const report = await validateRunningEnvironment(base(server));
  t.same(
    report.criteria.map((criterion) => [criterion.id, criterion.passed]),
    [
      ['openapi_version_available', true],
      ['health_endpoint', true],
      ['metadata_endpoint', true],
      ['schema_endpoint', true],
      ['mcp_endpoint', true],
      ['mode_endpoint_consistency', true],
    ],
    JSON.stringify(report.criteria.filter((criterion) => !criterion.passed)),
  );
  t.match(
    report,
    { passed: true, mode: 'simulation', standard_version: String, summary: { passed_count: 6, failed_criteria: [] } },
    'the report passes, simulation mode',
  );
  const openapi = await server.request('GET', '/openenv/openapi.json');
  t.equal(openapi.status, 200, 'GET /openenv/openapi.json');
  for (const path of ['/reset', '/step', '/state', '/health', '/metadata', '/schema', '/mcp'])
    t.ok(Object.hasOwn(openapi.body?.paths ?? {}, path), `paths has ${path}, relative to /openenv`);

  const elsewhere = await validateRunningEnvironment(`${server.origin}/openenv/nowhere`);
  t.match(elsewhere, { passed: false, mode: 'unknown', summary: { passed_count: 0 } }, 'the emulated validator fails a base URL that serves nothing');
});
