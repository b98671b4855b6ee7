import t from 'tap';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { startServer } from '../../helpers/server.js';
import { FIND_USER, PRODUCT, protocolChecks, SEED, TASK, USER_ID } from '../../helpers/openenv.js';

// OpenEnv over HTTP under /openenv: health, metadata and schema; reset naming a task or choosing one by
// seed among filters; steps addressed by body, header or path; its problems; the state.

t.test('health, metadata and the JSON Schemas of the action, the observation and the state', async (t) => {
  const server = await startServer(t);
  t.match(await server.request('GET', '/openenv/health'), { status: 200, body: { status: 'healthy' } });
  const metadata = await server.request('GET', '/openenv/metadata');
  const tasks = await server.request<unknown[]>('GET', '/tasks');
  t.match(metadata, { status: 200, body: { name: 'wildtools', version: /^\d+\.\d+\.\d+/, description: /retail/ } });
  t.equal(metadata.body.tasks, tasks.body.length, 'tasks: as many as GET /tasks lists');
  const schema = await server.request('GET', '/openenv/schema');
  t.equal(schema.status, 200);
  t.same(Object.keys(schema.body).sort(), ['action', 'observation', 'state']);
  const validator = new AjvJsonSchemaValidator();
  for (const part of ['action', 'observation', 'state'] as const) t.doesNotThrow(() => validator.getValidator(schema.body[part]), `${part} is a JSON Schema`);
  const action = validator.getValidator(schema.body.action);
  for (const valid of [FIND_USER, { type: 'list_tools' }, { type: 'answer', text: 'done' }, { type: 'answer', answer: { order_id: '#W1' } }])
    t.ok(action(valid).valid, `${valid.type}: a valid action`);
  for (const invalid of [{ type: 'dance' }, { type: 'answer', text: 7 }, { type: 'call_tool', tool_name: '' }, { type: 'list_tools', extra: 1 }]) {
    t.notOk(action(invalid).valid, `${JSON.stringify(invalid)}: not an action`);
  }
  t.match(schema.body.state, { type: 'object', properties: { episode_id: {}, step_count: {} } }, "the state has OpenEnv's fields");
  t.match(schema.body.observation, { type: 'object', properties: { session_id: { type: 'string' }, response: {}, error: {} } });
});

t.test('reset names a task or lets the seed choose among the filtered tasks', async (t) => {
  const server = await startServer(t);
  const checks = await protocolChecks(t, server);
  const reset = (body: unknown) => server.request('POST', '/openenv/reset', body);

  const named = await reset({ task: TASK, seed: SEED });
  t.equal(named.status, 200);
  checks.observed(named.body);
  t.match(named.body, {
    reward: null,
    done: false,
    observation: { step: 0, turn: 1, task: { id: TASK, domain: 'retail', turns: 1 }, message: new RegExp(PRODUCT), policy: /# / },
  });
  t.equal(named.headers['x-session-id'], named.body.observation.session_id, 'X-Session-Id is the observation’s session_id');
  const rest = await server.request('GET', '/retail/tools');
  t.same(
    named.body.observation.tools.map((tool: { name: string }) => tool.name),
    [...rest.body.tools.map((tool: { name: string }) => tool.name), 'submit_answer'],
    "the tools: the domain's, then submit_answer",
  );

  const chosen = async (body: Record<string, unknown>) => {
    const reply = await reset(body);
    t.equal(reply.status, 200, JSON.stringify(body));
    checks.observed(reply.body);
    return reply.body.observation.task.id as string;
  };
  const ids = async (query: string) => (await server.request<{ id: string }[]>('GET', `/tasks?${query}`)).body.map((task) => task.id).sort();
  for (const [filter, query] of [
    [{ domain: 'weather' }, 'domain=weather'],
    [{ category: 'multi-mission' }, 'category=multi-mission'],
    [{ kind: 'transport_fault' }, 'kind=transport_fault'],
    [{ domain: 'airline', kind: 'transient_failure' }, 'domain=airline&kind=transient_failure'],
  ] as const) {
    const candidates = await ids(query);
    t.ok(candidates.length > 1, `${query}: several candidates`);
    const picks = new Set<string>();
    for (const seed of [0, 1, 2, 3, '4', 5]) {
      const first = await chosen({ ...filter, seed });
      t.equal(await chosen({ ...filter, seed }), first, `${query}, seed ${seed}: the same seed, the same task`);
      t.ok(candidates.includes(first), `${query}, seed ${seed}: ${first} matches the filters`);
      picks.add(first);
    }
    t.ok(picks.size > 1, `${query}: the seed decides among them`);
    t.equal(await chosen({ ...filter, seed: 1 }), candidates[1 % candidates.length], `${query}: a numeric seed indexes the tasks by id`);
  }
  const every = await ids('');
  const drawn = new Set<string>();
  for (let attempt = 0; attempt < 6; attempt++) {
    const { body } = await reset({});
    const { id, seed } = body.observation.task;
    t.ok(seed >= 10_000, `no seed, no filter: a seed drawn from the train split (${seed})`);
    t.equal(id, every[seed % every.length], 'and that seed picks the task');
    drawn.add(id);
  }
  t.ok(drawn.size > 1, `resets without task or seed meet several tasks (${[...drawn].join(', ')})`);
  for (const [body, field] of [
    [{ domain: 'nowhere' }, 'domain'],
    [{ domain: 'retail', category: 'multi-mission', kind: 'no_such_kind' }, 'kind'],
    [{ domain: 'weather', category: 'nothing-like-it' }, 'category'],
  ] as const) {
    t.match(await reset(body), { status: 404, body: { code: 'unknown_task', field } }, `${JSON.stringify(body)}: no task, naming ${field}`);
  }
  t.match(await reset({ task: 'retail/999' }), { status: 404, body: { code: 'unknown_task', field: 'task' } }, 'an unknown task named');
  t.match(await reset({ task: TASK, seed: 'alpha' }), { status: 400, body: { errors: [{ field: 'seed' }] } }, "a seed is a task instance's number");

  const mine = await reset({ task: TASK, seed: SEED, episode_id: 'episode-one' });
  t.match(
    mine,
    { status: 200, headers: { 'x-session-id': 'episode-one' }, body: { observation: { session_id: 'episode-one' } } },
    'episode_id is the session id',
  );
  t.equal((await server.request('GET', '/sessions/episode-one/journal')).status, 200, 'the session exists');
  t.match(await reset({ task: TASK, seed: SEED, episode_id: 'episode-one' }), { status: 409, body: { code: 'session_exists' } }, 'the same episode_id again');
  t.match(await reset({ task: TASK, seed: SEED, max_steps: 0 }), { status: 400 }, 'max_steps below 1');
});

t.test('a step names its session in the body, in X-Session-Id or in the path; otherwise a problem', async (t) => {
  const server = await startServer(t);
  const checks = await protocolChecks(t, server);
  const { body } = await server.request('POST', '/openenv/reset', { task: TASK, seed: SEED, kinds: [] });
  const id: string = body.observation.session_id;
  const step = (path: string, payload: unknown, headers?: Record<string, string>) => server.request('POST', path, payload, headers);

  const ways = [
    () => step('/openenv/step', { session_id: id, action: FIND_USER }),
    () => step('/openenv/step', { action: FIND_USER }, { 'x-session-id': id }),
    () => step(`/s/${id}/openenv/step`, { action: FIND_USER }),
    // OpenEnv reads an action without a type as a tool call.
    () => step('/openenv/step', { session_id: id, action: { tool_name: FIND_USER.tool_name, arguments: FIND_USER.arguments } }),
  ];
  for (const [index, way] of ways.entries()) {
    const reply = await way();
    t.equal(reply.status, 200, `way ${index}`);
    checks.observed(reply.body);
    t.match(
      reply.body,
      {
        done: false,
        reward: null,
        observation: { session_id: id, step: index + 1, tool_name: 'find_user_id_by_email', result: USER_ID, error: null },
      },
      `way ${index}: the call ran in the session`,
    );
  }
  t.equal((await server.journal(id)).length, ways.length, 'every call is journaled in the session');
  t.equal((await server.journal()).length, 0, 'none in the default session');

  t.match(
    await step('/openenv/step', { action: FIND_USER }),
    { status: 400, body: { code: 'invalid_input', field: 'session_id' } },
    'no session named: 400 naming session_id',
  );
  t.match(await step('/openenv/step', { session_id: 'no-such-session', action: FIND_USER }), { status: 404, body: { code: 'session_not_found' } });
  t.match(await step('/s/no-such-session/openenv/step', { action: FIND_USER }), { status: 404, body: { code: 'session_not_found' } });
  for (const [action, field] of [
    [{ type: 'call_tool' }, 'action.tool_name'],
    [{ type: 'answer' }, 'action.answer'],
    [{ type: 'answer', text: 'x', extra: 1 }, 'action'],
    [{ type: 'dance' }, 'action.type'],
    [{ tool_name: '' }, 'action.tool_name'],
    [{ tool_name: 'x', arguments: [] }, 'action.arguments'],
  ] as const) {
    const reply = await step('/openenv/step', { session_id: id, action });
    t.match(reply, { status: 422, body: { code: 'invalid_action', errors: [{ field }] } }, `${JSON.stringify(action)}: 422 naming ${field}`);
    t.match(reply.headers['content-type'], /application\/problem\+json/);
  }
  const extras = await step('/openenv/step', { session_id: id, action: FIND_USER, timeout_s: 5, request_id: 'r-1', render: true });
  t.match(extras, { status: 200, body: { observation: { tool_name: FIND_USER.tool_name } } }, "StepRequest's other members are accepted and ignored");
  const unknown = await step('/openenv/step', { session_id: id, action: { tool_name: 'no_such_tool' } });
  t.match(unknown.body.observation, { response: { status: 404 }, error: { error_type: 'tool_not_found' } }, 'an unknown tool is observed, not refused');
});

t.test('GET /openenv/state: the named session’s episode, or an empty state', async (t) => {
  const server = await startServer(t);
  const checks = await protocolChecks(t, server);
  const { body } = await server.request('POST', '/openenv/reset', { task: TASK, seed: SEED, kinds: [], max_steps: 7 });
  const id: string = body.observation.session_id;
  await server.request('POST', '/openenv/step', { session_id: id, action: FIND_USER });
  await server.request('POST', '/openenv/step', { session_id: id, action: { type: 'list_tools' } });
  const expected = { episode_id: id, session_id: id, step_count: 2, task: TASK, seed: SEED, turn: 1, turns: 1, max_steps: 7, done: false, calls: 1 };
  for (const [path, headers] of [
    [`/openenv/state?session_id=${id}`, {}],
    ['/openenv/state', { 'x-session-id': id }],
    [`/s/${id}/openenv/state`, {}],
  ] as const) {
    const reply = await server.request('GET', path, undefined, headers);
    t.equal(reply.status, 200, path);
    t.same(checks.state(reply.body), expected, `${path}: the episode's state`);
  }
  const empty = await server.request('GET', '/openenv/state');
  t.same(checks.state(empty.body), {
    episode_id: null,
    step_count: 0,
    session_id: null,
    task: null,
    seed: null,
    turn: 1,
    turns: 1,
    max_steps: 100,
    done: false,
    calls: 0,
  });
  t.match(await server.request('GET', '/openenv/state?session_id=nobody'), { status: 404, body: { code: 'session_not_found' } });
});
