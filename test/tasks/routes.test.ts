import t, { type Test } from 'tap';
import { Agent } from 'undici';
import { readFileSync } from 'node:fs';
import { type AgentProfile, agentOf, NAIVE, ORACLE } from '../../agents/agent.js';
import { comparableJournal } from '../../agents/matrix.js';
import { plans } from '../../agents/plans/index.js';
import { runTask } from '../../agents/run.js';
import { toolClient } from '../../agents/tool-client.js';
import { domains } from '../../domains/index.js';
import { baseFromFile } from '../../server/core/data/base.js';
import { SPLITS } from '../../server/core/tasks/seeds.js';
import { fixtureBases, startServer, type TestServer } from '../helpers/server.js';

// The task API: templates listed, instances as an agent sees them, sessions set up by a task and a seed,
// typed answers, the score, re-scoring a stored journal, and batches with pass^k.

const TASK = 'retail/001';

async function withAgent(t: Test): Promise<Agent> {
  const dispatcher = new Agent();
  t.teardown(() => dispatcher.close());
  return dispatcher;
}

async function scored(t: Test, server: TestServer, session: string, agent: AgentProfile, kinds?: string[], seed = 1) {
  return runTask(await withAgent(t), server.origin, TASK, agent, plans[TASK]!, { session, seed, ...(kinds ? { kinds } : {}), keep: true });
}

t.test('GET /tasks lists templates; GET /tasks/{domain}/{n}?seed=N shows an instance, never its expected outcome', async (t) => {
  const server = await startServer(t);
  const list = await server.request('GET', '/tasks');
  t.equal(list.status, 200);
  const one = list.body.find((task: { id: string }) => task.id === TASK);
  t.same(one, {
    id: TASK,
    domain: 'retail',
    title: 'Cancel a pending order',
    categories: ['multi-step'],
    turns: 1,
    source: 'template',
    targets: [
      { kind: 'unknown_outcome', tool: 'cancel_pending_order' },
      { kind: 'transient_failure', tool: 'get_order_details' },
    ],
  });
  t.same((await server.request('GET', '/tasks?domain=retail&kind=unknown_outcome')).body.map((task: { id: string }) => task.id).includes(TASK), true);
  t.same((await server.request('GET', '/tasks?domain=nowhere')).body, []);
  t.notOk((await server.request('GET', '/tasks?kind=no_such_kind')).body.length, 'a kind no task targets selects nothing');
  t.equal((await server.request('GET', '/tasks?category=bogus')).status, 400, 'an unknown category is refused');

  const zero = await server.request('GET', '/tasks/retail/001');
  t.equal(zero.status, 200);
  t.equal(zero.body.seed, 0, 'seed 0 by default: the embedded data');
  t.ok(zero.body.tools.includes('cancel_pending_order'));
  t.match(zero.body.policy, /# /, 'the policy as markdown');
  t.match(zero.body.request, new RegExp(`${zero.body.given.email}.*${zero.body.given.product}`), 'the request states what `given` holds');
  t.match(zero.body.answer_schemas, [{ type: 'object', properties: { order_id: { type: 'string' }, refunds: { type: 'array' } } }]);
  const instance = server.app.tasks.instance(TASK, 0);
  const expected = instance.turns[0]!.answer!.expected as { order_id: string; refunds: { payment_method_id: string }[] };
  t.notMatch(zero.text, expected.order_id, 'never the expected answer');
  t.notMatch(zero.text, /"expect"|"writes"/, 'never the expected outcome');

  const seven = await server.request('GET', '/tasks/retail/001?seed=7');
  t.equal(seven.body.seed, 7);
  t.not(seven.body.request, zero.body.request, 'another seed, another instance');
  t.same((await server.request('GET', '/tasks/retail/001?seed=7')).body, seven.body, 'the same seed, the same instance');
  for (const seed of ['x', '-1', '2147483648', '99999999999'])
    t.match(await server.request('GET', `/tasks/retail/001?seed=${seed}`), { status: 400 }, `seed ${seed}`);

  t.match(await server.request('GET', '/tasks/__proto__/001'), { status: 400, body: { errors: [{ field: 'domain' }] } }, 'a domain is lowercase letters');
  for (const path of ['/tasks/retail/999', '/tasks/constructor/001', '/tasks/toString/001'.toLowerCase()]) {
    const missing = await server.request('GET', path);
    t.equal(missing.status, 404, path);
    t.match(missing.body, { code: 'unknown_task' });
  }
  t.equal((await server.request('GET', '/tasks/retail/1')).status, 404, 'a name that is no task');
  t.equal((await server.request('GET', '/tasks/retail/_1')).status, 400, 'a name starts with a letter or digit');
});

t.test("a domain served from another file than the embedded data lists no tasks: they pick from the embedded data's worlds", async (t) => {
  const bases = new Map(await fixtureBases());
  const retail = domains.find((domain) => domain.name === 'retail')!;
  bases.set('retail', baseFromFile(retail, JSON.parse(readFileSync(retail.fixtureFile, 'utf8')), '/data/retail.json'));
  const server = await startServer(t, { bases });
  const ids = (await server.request('GET', '/tasks')).body.map((task: { id: string }) => task.id);
  t.notOk(
    ids.some((id: string) => id.startsWith('retail/')),
    'no retail task',
  );
  t.ok(
    ids.some((id: string) => id.startsWith('airline/')),
    'the other domains keep theirs',
  );
  t.match(await server.request('POST', '/sessions', { task: TASK }), { status: 404, body: { code: 'unknown_task' } });
});

t.test('POST /sessions {task, seed} runs that instance with the targeted scenarios only, at the chosen rate', async (t) => {
  const server = await startServer(t);
  const active = async (session: string) =>
    ((await server.request('GET', `/hazards?session=${session}&active=1`)).body.matrix as { tool: string; kind: string; probability: number }[]).map(
      (cell) => `${cell.tool}:${cell.kind}:${cell.probability}`,
    );
  t.equal((await server.request('POST', '/sessions', { id: 'all', task: TASK, seed: 3 })).status, 201);
  t.same((await active('all')).sort(), ['cancel_pending_order:unknown_outcome:1', 'get_order_details:transient_failure:1']);
  await server.newSession({ id: 'some', task: TASK, seed: 3, kinds: ['transient_failure'], hazard_rate: 0.25 });
  t.same(await active('some'), ['get_order_details:transient_failure:0.25']);
  await server.newSession({ id: 'none', task: TASK, seed: '3', kinds: [] });
  t.same(await active('none'), []);
  t.match((await server.request('GET', '/sessions/none')).body, { task: TASK, seed: '3', answers: 0 }, 'a seed in digits is the seed');

  const drawn = await server.request('POST', '/sessions', { id: 'unseeded', task: TASK });
  const seed = Number(drawn.body.seed);
  t.ok(seed >= SPLITS.train.first && seed <= SPLITS.train.last, `without a seed one is drawn from the train split and reported (${seed})`);
  await server.request('DELETE', '/sessions/unseeded');
  t.equal(
    (await server.request('POST', '/sessions', { id: 'unseeded', task: TASK })).body.seed,
    drawn.body.seed,
    'drawn from the id: the same id, the same seed',
  );

  // The session's database is the instance's: its customer exists there.
  const given = (await server.request('GET', `/tasks/${TASK}?seed=3`)).body.given;
  t.equal(
    (await server.call('retail', 'find_user_id_by_email', { email: given.email }, 'all')).status,
    200,
    "the instance's customer is in the session's database",
  );
  const other = (await server.request('GET', `/tasks/${TASK}?seed=4`)).body.given;
  t.equal((await server.call('retail', 'find_user_id_by_email', { email: other.email }, 'all')).status, 404, "another seed's customer is not");

  const refused = [
    [{ task: TASK, kinds: ['sponsored'] }, 400, 'kinds'],
    [{ kinds: [] }, 400, 'kinds'],
    [{ hazard_rate: 0.5 }, 400, 'hazard_rate'],
    [{ task: 'retail/999' }, 404, 'task'],
    [{ task: '__proto__' }, 404, 'task'],
    [{ task: TASK, hazard_rate: 2 }, 400, 'hazard_rate'],
    [{ task: TASK, seed: 'forty-two' }, 400, 'seed'],
    [{ task: TASK, seed: -1 }, 400, 'seed'],
  ] as const;
  for (const [body, status, field] of refused) {
    const reply = await server.request('POST', '/sessions', body);
    t.equal(reply.status, status, JSON.stringify(body));
    t.match(reply.body.field ?? reply.body.errors?.[0]?.field, field, `names ${field}`);
  }
  t.equal((await server.request('GET', '/sessions')).body.length, 5, 'a refused session is not created (default + 4)');
});

t.test('a seed fixes the conditions: the same task and seed in two sessions of other ids meet the same faults and end the same', async (t) => {
  const server = await startServer(t);
  const first = await scored(t, server, 'alpha', ORACLE, undefined, 5);
  const second = await scored(t, server, 'a-completely-different-id', ORACLE, undefined, 5);
  t.ok(
    first.journal.some((entry) => entry.hazards.length > 0),
    'the hazards hit',
  );
  t.equal(comparableJournal(second.journal), comparableJournal(first.journal), 'identical journals');
  t.same(second.answers, first.answers);
  const third = await scored(t, server, 'gamma', ORACLE, undefined, 6);
  t.not(comparableJournal(third.journal), comparableJournal(first.journal), 'another seed, another instance');
});

t.test('typed answers, score and re-score: the oracle succeeds under the hazards, the naive agent does not', async (t) => {
  const server = await startServer(t);
  const oracle = await scored(t, server, 'o', ORACLE, ['transient_failure', 'unknown_outcome']);
  t.match(oracle.score, { task: TASK, session: 'o', seed: 1, success: true, journal_complete: true, state: { ok: true }, answer: { ok: true, rule: 'typed' } });
  t.same(
    oracle.score.hazards.map((verdict: { kind: string; recovered: boolean }) => [verdict.kind, verdict.recovered]),
    [
      ['transient_failure', true],
      ['unknown_outcome', true],
    ],
  );
  t.equal(oracle.journal.at(-1).tool, 'submit_answer', 'the answer is the last call of the journal');
  const naive = await scored(t, server, 'n', NAIVE, ['transient_failure']);
  t.match(naive.score, { success: false, answer: { ok: false, answered: false }, hazards: [{ kind: 'transient_failure', recovered: false, evidence: [] }] });

  const again = await server.call('retail', 'submit_answer', oracle.answers[0]!.answer, 'o');
  t.match(again, { status: 409, body: { code: 'already_answered' } }, 'a task of one turn takes one answer');
  t.match(await server.request('POST', '/sessions/o/answer', { answer: oracle.answers[0]!.answer }), { status: 409, body: { code: 'already_answered' } });
  t.match(await server.request('POST', '/sessions/default/answer', { text: 'x' }), { status: 409, body: { code: 'no_task' } });
  t.match(await server.call('retail', 'submit_answer', {}, 'default'), { status: 404, body: { code: 'unknown_tool' } }, 'no task, no submit_answer');
  t.match(await server.request('GET', '/sessions/default/score'), { status: 409, body: { code: 'no_task' } });
  t.match(await server.request('GET', '/sessions/nope/score'), { status: 404 });
  t.match(await server.request('POST', '/sessions/o/answer', { text: 1 }), { status: 400 });

  for (const run of [oracle, naive]) {
    const rescored = await server.request('POST', '/score', { task: TASK, seed: 1, journal: run.journal, answers: run.answers });
    t.equal(rescored.status, 200);
    const { session: _s, journal_complete: _c, seed: _seed, ...live } = run.score;
    t.same(rescored.body, live, `${run.agent}: the stored journal re-scores to the live score`);
  }
  const tampered = oracle.journal.map((entry: { tool: string; changes: unknown[] }) =>
    entry.tool === 'cancel_pending_order' ? { ...entry, changes: [] } : entry,
  );
  const rescored = await server.request('POST', '/score', { task: TASK, seed: 1, journal: tampered, answers: oracle.answers });
  t.match(rescored.body, { success: false, state: { ok: false }, contradicted_claims: ['order_id'] }, 'without the write, the claim is contradicted');
  const otherSeed = await server.request('POST', '/score', { task: TASK, seed: 2, journal: oracle.journal, answers: oracle.answers });
  t.match(otherSeed.body, { success: false }, "seed 1's run is not a run of seed 2");

  const badTable = await server.request('POST', '/score', {
    task: TASK,
    journal: [{ ...oracle.journal[0], changes: [{ table: 'constructor', id: 'x', value: {} }] }],
  });
  t.match(badTable, { status: 400, body: { field: 'journal.0.changes.0.table' } });
  const badDomain = await server.request('POST', '/score', {
    task: TASK,
    journal: [{ ...oracle.journal[0], domain: '__proto__', changes: [{ table: 'orders', id: 'x', value: {} }] }],
  });
  t.match(badDomain, { status: 400, body: { field: 'journal.0.domain' } });
  t.match(await server.request('POST', '/score', { task: 'retail/999', journal: [] }), { status: 404, body: { code: 'unknown_task' } });
});

t.test('submit_answer and POST /sessions/{id}/answer validate the answer like any tool, and change nothing when they refuse', async (t) => {
  const server = await startServer(t);
  await server.newSession({ id: 'v', task: TASK, seed: 2, kinds: [] });
  const listed = (await server.request('GET', '/s/v/retail/tools?format=openai&strict=true')).body as { function: { name: string; parameters: any } }[];
  const tool = listed.find((entry) => entry.function.name === 'submit_answer')!;
  t.same(Object.keys(tool.function.parameters.properties).sort(), ['message', 'order_id', 'refunds'], 'the answer schema, and a message');
  t.equal(listed.at(-1)!.function.name, 'submit_answer', 'listed after the domain tools');
  for (const format of ['native', 'openai-responses', 'anthropic', 'mcp']) {
    t.match((await server.request('GET', `/s/v/retail/tools?format=${format}`)).text, /"submit_answer"/, `${format}: listed`);
  }
  t.match((await server.request('GET', '/s/v/tools?format=openai')).text, /"submit_answer"/, 'the combined view lists it too');
  t.notMatch((await server.request('GET', '/s/v/airline/tools?format=openai')).text, /submit_answer/, "another domain's listing does not");
  t.notMatch((await server.request('GET', '/retail/tools?format=openai')).text, /submit_answer/, 'a session without a task does not');

  const wrong = await server.call('retail', 'submit_answer', { order_id: 5, refunds: 'none' }, 'v');
  t.match(wrong, { status: 400, body: { code: 'invalid_input', errors: [{ field: 'order_id' }, { field: 'refunds' }] } });
  const extra = await server.call('retail', 'submit_answer', { order_id: '#W1', refunds: [], total: 3 }, 'v');
  t.match(extra, { status: 400, body: { errors: [{ field: 'total' }] } }, 'a field the answer does not name');
  const words = await server.request('POST', '/sessions/v/answer', { text: 'Your order is cancelled.' });
  t.match(words, { status: 400, body: { field: 'answer' } }, 'words alone do not answer a typed task');
  const nested = await server.request('POST', '/sessions/v/answer', { answer: { order_id: 7 } });
  t.match(nested, { status: 400, body: { code: 'invalid_input' } });
  t.match((await server.request('GET', '/sessions/v')).body, { answers: 0 }, 'nothing recorded');
  const right = await server.request('POST', '/sessions/v/answer', { answer: { order_id: '#W1', refunds: [] }, text: 'Done.' });
  t.match(right, { status: 200, body: { session: 'v', turn: 1, turns: 1, next_request: null } });
  const journal = await server.journal('v');
  t.same(
    journal.map((entry) => [entry.tool, entry.status]),
    [
      ['submit_answer', 400],
      ['submit_answer', 400],
    ],
    'refused submissions are journaled like calls; the REST answer is not a call',
  );
});

t.test('answers survive a reset only as nothing: reset clears them', async (t) => {
  const server = await startServer(t);
  await server.newSession({ id: 'r', task: TASK, kinds: [] });
  t.match(await server.call('retail', 'submit_answer', { order_id: '#W1', refunds: [] }, 'r'), { status: 200, body: { turn: 1, turns: 1 } });
  await server.request('POST', '/sessions/r/reset');
  t.match((await server.request('GET', '/sessions/r')).body, { answers: 0 });
});

t.test('batches: N sessions with distinct seeds, their verdicts and pass^k', async (t) => {
  const server = await startServer(t, { sessions: { maxSessions: 10 } });
  const created = await server.request('POST', '/batches', { id: 'b1', task: TASK, n: 3, kinds: ['transient_failure'] });
  t.equal(created.status, 201);
  t.same(
    created.body.sessions.map((row: { id: string; seed: number; status: string }) => [row.id, row.seed, row.status]),
    [
      ['b1.1', 1, 'running'],
      ['b1.2', 2, 'running'],
      ['b1.3', 3, 'running'],
    ],
    'one instance per seed, 1 … N by default',
  );
  const dispatcher = await withAgent(t);
  // One session answered by the oracle, one by the naive agent: the plans run inside the batch's sessions.
  for (const [session, agent, seed] of [
    ['b1.1', ORACLE, 1],
    ['b1.2', NAIVE, 2],
  ] as const) {
    const view = (await server.request('GET', `/tasks/${TASK}?seed=${seed}`)).body;
    const said = await plans[TASK]!(agentOf(agent, toolClient(dispatcher, server.origin, 'retail', session), view)).catch(() => undefined);
    const answer = said && typeof said === 'object' && 'answer' in said ? (said as { answer?: object }).answer : undefined;
    if (answer) await server.call('retail', 'submit_answer', answer, session);
    else await server.call('retail', 'submit_answer', { order_id: 'unknown', refunds: [] }, session);
  }
  const report = await server.request('GET', '/batches/b1');
  t.match(report.body, { task: TASK, scored: 2, successes: 1 });
  t.same(
    report.body.sessions.map((row: { status: string; success: boolean | null }) => [row.status, row.success]),
    [
      ['scored', true],
      ['scored', false],
      ['running', null],
    ],
  );
  t.same(report.body.pass_hat_k, [
    { k: 1, pass: 0.5 },
    { k: 2, pass: 0 },
  ]);
  await server.request('DELETE', '/sessions/b1.3');
  t.equal((await server.request('GET', '/batches/b1')).body.sessions[2].status, 'expired');

  t.match(await server.request('POST', '/batches', { id: 'b1', task: TASK, n: 1 }), { status: 409 }, 'a batch id is used once');
  t.match(await server.request('POST', '/batches', { task: TASK, n: 9 }), { status: 503, body: { code: 'too_many_sessions' } });
  t.match(await server.request('POST', '/batches', { task: TASK, n: 2, seeds: [1, 1] }), { status: 400, body: { field: 'seeds' } });
  t.match(await server.request('POST', '/batches', { task: TASK, n: 1, seeds: ['x'] }), { status: 400 });
  t.match(await server.request('POST', '/batches', { task: TASK, n: 65 }), { status: 400 });
  t.match(await server.request('POST', '/batches', { task: 'nope/001', n: 1 }), { status: 404 });
  t.match(await server.request('GET', '/batches/__proto__'), { status: 404, body: { code: 'batch_not_found' } });
  const fresh = await server.request('POST', '/batches', { task: TASK, n: 1, seeds: [12345] });
  t.match(fresh.body, { id: /^batch-[0-9a-f]{8}$/, sessions: [{ seed: 12345 }] });
});

t.test("instances are built in the server's compatibility mode (TAU2_COMPAT), as their sessions run their tools", async (t) => {
  const server = await startServer(t, { sessions: { compat: 'strict' } });
  t.equal(server.app.sessions.compat, 'strict', 'the store tells its mode');
  t.equal(server.app.tasks.compat, 'strict', 'and the task book builds its reference runs in it');
});
