import t, { type Test } from 'tap';
import { FIND_USER, gone, SEED, TASK, USER_ID } from '../../helpers/openenv.js';
import { GenericEnvClient } from '../../helpers/openenv/generic-client.js';
import { MCPToolClient } from '../../helpers/openenv/mcp-tool-client.js';
import { unreadableMembers } from '../../helpers/openenv/observation-rules.js';
import { modelOf } from '../../helpers/openenv/pydantic.js';
import { raisedBy } from '../../helpers/openenv/python.js';
import { SESSION_ID } from '../../../server/core/sessions/session.js';
import { SPLITS } from '../../../server/core/tasks/seeds.js';
import { startServer, type TestServer } from '../../helpers/server.js';

// What OpenEnv's clients and server allow that an environment must take: reset arguments the environment
// does not know (OpenEnv's server drops them), any episode_id of 1 to 255 characters (ResetRequest), every
// StepRequest field and extra ones, openenv/session/create with reset's fields, and GET /openenv/tasks.
// The conformance table is in conformance.test.ts.

const base = (server: TestServer) => `${server.origin}/openenv`;

const rpc = async (server: TestServer, method: string, params: Record<string, unknown> = {}) =>
  (await server.request('POST', '/openenv/mcp', { jsonrpc: '2.0', id: 1, method, params })).body;

const connected = (t: Test, server: TestServer) => {
  const env = new GenericEnvClient(base(server));
  t.teardown(() => env.close());
  return env;
};

const UNKNOWN = { difficulty: 'hard', render_mode: 'rgb_array' };

t.test('WebSocket reset ignores the arguments it does not take, names them, and still checks those it does', async (t) => {
  const server = await startServer(t);
  const env = connected(t, server);
  const socket = await env.reset({ task: TASK, seed: SEED, kinds: [], ...UNKNOWN });
  t.match(socket.observation, { task: { id: TASK, seed: SEED } }, 'WebSocket reset: the task at its seed');
  t.same((socket.observation as { metadata?: unknown }).metadata, { ignored_kwargs: ['difficulty', 'render_mode'] }, 'the ignored names, sorted');
  const plain = (await env.reset({ task: TASK, seed: SEED })).observation as { metadata?: unknown };
  t.notOk(plain.metadata !== undefined && plain.metadata !== null && Object.hasOwn(plain.metadata, 'ignored_kwargs'), 'nothing ignored, nothing named');
  t.not(plain.metadata, null, 'metadata is never null (MCPToolClient reads it as a dict)');
  const refused = await raisedBy(env.reset({ task: TASK, seed: 'many', ...UNKNOWN }));
  t.match(refused, { pyType: 'RuntimeError', message: /seed.*\(code: VALIDATION_ERROR\)$/s }, 'a bad seed is still refused');

  const mcp = new MCPToolClient(base(server));
  t.teardown(() => mcp.close());
  const typed = await mcp.reset({ task: TASK, seed: SEED, ...UNKNOWN });
  t.equal(modelOf(typed.observation), 'ListToolsObservation', 'MCPToolClient reads it');
  t.same(typed.observation['metadata'], { ignored_kwargs: ['difficulty', 'render_mode'] });
});

t.test('POST /openenv/reset and openenv/session/create: the same', async (t) => {
  const server = await startServer(t);
  const http = await server.request('POST', '/openenv/reset', { task: TASK, seed: SEED, zeta: 1, alpha: true });
  t.equal(http.status, 200, 'POST /openenv/reset');
  t.same(http.body.observation?.metadata, { ignored_kwargs: ['alpha', 'zeta'] }, 'POST /openenv/reset: the ignored names, sorted');
  t.same(unreadableMembers(http.body.observation), [], 'POST /openenv/reset: tools only as a list, tool_name only as a string');
  const badHttp = await server.request('POST', '/openenv/reset', { task: TASK, seed: -1, zeta: 1 });
  t.ok(badHttp.status >= 400 && badHttp.status < 500, `a bad seed over HTTP: ${badHttp.status}`);
  t.match(badHttp.text, /seed/, 'naming seed');

  const created = await rpc(server, 'openenv/session/create', { task: TASK, seed: SEED, ...UNKNOWN });
  t.same(created.result?.observation?.metadata, { ignored_kwargs: ['difficulty', 'render_mode'] }, 'openenv/session/create');
  t.same(unreadableMembers(created.result?.observation), [], 'openenv/session/create: tools only as a list, tool_name only as a string');
  t.match(
    await rpc(server, 'openenv/session/create', { seed: 'many', ...UNKNOWN }),
    { error: { code: -32602, message: /seed/ } },
    'openenv/session/create: a bad seed refused',
  );
});

t.test('episode_id: any 1 to 255 characters, reported as given, with a safe session id', async (t) => {
  const server = await startServer(t);
  const env = connected(t, server);
  for (const id of ['safe-id_1.2', 'episode 001/α: first try', 'x'.repeat(255)]) {
    const { observation } = await env.reset({ task: TASK, seed: SEED, kinds: [], episode_id: id });
    const sessionId = (observation as { session_id: string }).session_id;
    t.match(sessionId, SESSION_ID, `${id.slice(0, 30)}: a safe session id (${sessionId.slice(0, 30)})`);
    if (SESSION_ID.test(id)) t.equal(sessionId, id, `${id}: the id itself when already safe`);
    t.match(await env.state(), { episode_id: id, step_count: 0 }, `${id.slice(0, 30)}: state reports it as given`);
    const over = await server.request('GET', `/openenv/state?session_id=${encodeURIComponent(sessionId)}`);
    t.equal(over.body?.episode_id, id, `${id.slice(0, 30)}: over HTTP too`);
  }
  const tooLong = await raisedBy(env.reset({ task: TASK, seed: SEED, episode_id: 'x'.repeat(256) }));
  t.match(tooLong, { pyType: 'RuntimeError', message: /episode_id/ }, '256 characters: refused with an error message');
  t.match(await env.state(), { step_count: 0 }, 'the connection still serves');
});

t.test('an episode_id is free again once its episode closed; two live episodes cannot share one', async (t) => {
  const server = await startServer(t);
  const first = connected(t, server);
  await first.reset({ task: TASK, seed: SEED, kinds: [], episode_id: 'again' });
  await first.close();
  const second = connected(t, server);
  const reused = await second.reset({ task: TASK, seed: SEED, kinds: [], episode_id: 'again' });
  t.match(reused, { done: false, observation: { session_id: 'again' } }, 'right after a WebSocket close');
  t.match(await second.step({ ...FIND_USER }), { observation: { result: USER_ID } });

  const twin = connected(t, server);
  const refused = await raisedBy(twin.reset({ task: TASK, seed: SEED, kinds: [], episode_id: 'again' }));
  t.match(refused, { pyType: 'RuntimeError', message: /^Server error: .+ \(code: [A-Z_]+\)$/s }, 'a second live episode with the id: an error message');
  t.match(await second.state(), { episode_id: 'again', step_count: 1 }, 'the first goes on');
  t.match(await twin.reset({ task: TASK, seed: SEED, kinds: [] }), { done: false }, 'and the refused connection still serves');

  const created = await rpc(server, 'openenv/session/create', { task: TASK, seed: SEED, episode_id: 'by-rpc' });
  const sessionId = created.result?.session_id;
  t.type(sessionId, 'string', 'openenv/session/create with an episode_id');
  const clash = await server.request('POST', '/openenv/mcp', { jsonrpc: '2.0', id: 2, method: 'openenv/session/create', params: { episode_id: 'by-rpc' } });
  t.equal(clash.status, 200, 'a clash over JSON-RPC is no crash');
  t.match(clash.body, { jsonrpc: '2.0', id: 2, error: { code: Number } }, 'a JSON-RPC error');
  t.match(await rpc(server, 'openenv/session/close', { session_id: sessionId }), { result: { closed: true } }, 'openenv/session/close');
  t.ok(await gone(server, sessionId), 'closed');
  t.match(
    await rpc(server, 'openenv/session/create', { task: TASK, seed: SEED, episode_id: 'by-rpc' }),
    { result: { session_id: sessionId } },
    'reused after close',
  );
});

t.test('POST /openenv/step takes every StepRequest field and ignores extra ones', async (t) => {
  const server = await startServer(t);
  const reset = await server.request('POST', '/openenv/reset', { task: TASK, seed: SEED, kinds: [] });
  const session_id = reset.body.observation.session_id;
  const step = await server.request('POST', '/openenv/step', {
    action: FIND_USER,
    session_id,
    timeout_s: 30,
    request_id: 'request-1',
    render: true,
    verbose: false,
  });
  t.equal(step.status, 200, step.text.slice(0, 300));
  t.match(step.body, { done: false, observation: { tool_name: FIND_USER.tool_name, result: USER_ID } }, 'the step ran');
  t.same(unreadableMembers(step.body?.observation), [], 'POST /openenv/step: tools only as a list, tool_name only as a string');
});

t.test('openenv/session/create opens the task at the seed given, or a session without them', async (t) => {
  const server = await startServer(t);
  const named = await rpc(server, 'openenv/session/create', { task: TASK, seed: SEED, kinds: [] });
  t.match(named.result, { observation: { task: { id: TASK, seed: SEED } } }, 'task and seed');
  const listed = await rpc(server, 'tools/list', { session_id: named.result?.session_id });
  t.ok(
    listed.result?.tools?.some((tool: { name: string }) => tool.name === FIND_USER.tool_name),
    "the task's tools",
  );
  const bare = await rpc(server, 'openenv/session/create');
  t.type(bare.result?.session_id, 'string', 'without them: a session still');
});

t.test('GET /openenv/tasks: the tasks and the seed splits', async (t) => {
  const server = await startServer(t);
  const reply = await server.request('GET', '/openenv/tasks');
  t.equal(reply.status, 200, 'GET /openenv/tasks');
  t.match(
    reply.body,
    { tasks: Array, splits: { train: { first: SPLITS.train.first }, test: { first: SPLITS.test.first, last: SPLITS.test.last } } },
    'tasks and splits',
  );
  const all = (await server.request<{ id: string }[]>('GET', '/tasks')).body;
  t.equal(reply.body?.tasks?.length, all.length, 'every task');
  t.match(
    reply.body?.tasks?.find((task: { id: string }) => task.id === TASK),
    { id: TASK, domain: 'retail' },
    `${TASK}: its id and domain`,
  );
});
