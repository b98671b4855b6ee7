import t, { type Test } from 'tap';
import { Agent } from 'undici';
import { plans } from '../../agents/plans/index.js';
import { agentOf } from '../../agents/agent.js';
import { runTask } from '../../agents/run.js';
import { toolClient } from '../../agents/tool-client.js';
import { readFileSync } from 'node:fs';
import { domains } from '../../domains/index.js';
import { baseFromFile } from '../../server/data/base.js';
import { TaskBook } from '../../server/tasks/book.js';
import { scoreJournal } from '../../server/tasks/judge.js';
import { fixtureBases, startServer, type TestServer } from '../helpers/server.js';

// The task API: tasks as an agent sees them, sessions set up by a task, answers, the score, re-scoring a
// stored journal and batches with pass^k.

const TASK = 'retail/001';

async function withAgent(t: Test): Promise<Agent> {
  const dispatcher = new Agent();
  t.teardown(() => dispatcher.close());
  return dispatcher;
}

async function scored(t: Test, server: TestServer, session: string, agent: 'oracle' | 'naive', kinds: string[]) {
  return runTask(await withAgent(t), server.origin, TASK, agent, plans[TASK]!, { session, kinds, keep: true });
}

t.test('GET /tasks lists tasks without their expected outcome; GET /tasks/{domain}/{n} adds tools and policy', async (t) => {
  const server = await startServer(t);
  const list = await server.request('GET', '/tasks');
  t.equal(list.status, 200);
  const one = list.body.find((task: { id: string }) => task.id === TASK);
  t.match(one, { id: TASK, domain: 'retail', categories: ['multi-step'], request: /#W5124601/, follow_ups: [] });
  t.notOk('expect' in one || 'forbidden' in one, 'no expected outcome in the list');
  t.same((await server.request('GET', '/tasks?domain=retail&kind=unknown_outcome')).body.map((task: { id: string }) => task.id).includes(TASK), true);
  t.same((await server.request('GET', '/tasks?domain=nowhere')).body, []);
  t.notOk((await server.request('GET', '/tasks?kind=no_such_kind')).body.length, 'a kind no task targets selects nothing');
  t.equal((await server.request('GET', '/tasks?category=bogus')).status, 400, 'an unknown category is refused');

  const full = await server.request('GET', '/tasks/retail/001');
  t.equal(full.status, 200);
  t.ok(full.body.tools.includes('cancel_pending_order'));
  t.match(full.body.policy, /# /, 'the policy as markdown');
  t.notMatch(full.text, /"expect"|"writes"|credit_card_5799123/, 'never the expected outcome');
  t.match(await server.request('GET', '/tasks/__proto__/001'), { status: 400, body: { errors: [{ field: 'domain' }] } }, 'a domain is lowercase letters');
  for (const path of ['/tasks/retail/999', '/tasks/constructor/001', '/tasks/toString/001'.toLowerCase()]) {
    const missing = await server.request('GET', path);
    t.equal(missing.status, 404, path);
    t.match(missing.body, { code: 'unknown_task' });
  }
  t.equal((await server.request('GET', '/tasks/retail/1')).status, 404, 'a name that is no task');
  t.equal((await server.request('GET', '/tasks/retail/_1')).status, 400, 'a name starts with a letter or digit');
});

t.test("a domain served from another file than the embedded data lists no tasks: they name the embedded data's records", async (t) => {
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

t.test('POST /sessions {task} switches on the targeted scenarios only, at the chosen rate', async (t) => {
  const server = await startServer(t);
  const active = async (session: string) =>
    ((await server.request('GET', `/hazards?session=${session}&active=1`)).body.matrix as { tool: string; kind: string; probability: number }[]).map(
      (cell) => `${cell.tool}:${cell.kind}:${cell.probability}`,
    );
  t.equal((await server.request('POST', '/sessions', { id: 'all', task: TASK })).status, 201);
  t.same((await active('all')).sort(), ['cancel_pending_order:unknown_outcome:1', 'get_order_details:transient_failure:1']);
  await server.newSession({ id: 'some', task: TASK, kinds: ['transient_failure'], hazard_rate: 0.25 });
  t.same(await active('some'), ['get_order_details:transient_failure:0.25']);
  await server.newSession({ id: 'none', task: TASK, kinds: [] });
  t.same(await active('none'), []);
  const summary = await server.request('GET', '/sessions/none');
  t.match(summary.body, { task: TASK, answers: 0 });

  const refused = [
    [{ task: TASK, kinds: ['sponsored'] }, 400, 'kinds'],
    [{ kinds: [] }, 400, 'kinds'],
    [{ hazard_rate: 0.5 }, 400, 'hazard_rate'],
    [{ task: 'retail/999' }, 404, 'task'],
    [{ task: '__proto__' }, 404, 'task'],
    [{ task: TASK, hazard_rate: 2 }, 400, 'hazard_rate'],
  ] as const;
  for (const [body, status, field] of refused) {
    const reply = await server.request('POST', '/sessions', body);
    t.equal(reply.status, status, JSON.stringify(body));
    t.match(reply.body.field ?? reply.body.errors?.[0]?.field, field, `names ${field}`);
  }
  t.equal((await server.request('GET', '/sessions')).body.length, 4, 'a refused session is not created (default + 3)');
});

t.test('answers, score and re-score: the oracle succeeds under the hazards, the naive agent does not', async (t) => {
  const server = await startServer(t);
  const oracle = await scored(t, server, 'o', 'oracle', ['transient_failure', 'unknown_outcome']);
  t.match(oracle.score, { task: TASK, session: 'o', success: true, journal_complete: true, state: { ok: true }, answer: { ok: true } });
  t.same(
    oracle.score.hazards.map((verdict: { kind: string; recovered: boolean }) => [verdict.kind, verdict.recovered]),
    [
      ['transient_failure', true],
      ['unknown_outcome', true],
    ],
  );
  const naive = await scored(t, server, 'n', 'naive', ['transient_failure']);
  t.match(naive.score, { success: false, answer: { ok: false }, hazards: [{ kind: 'transient_failure', recovered: false, evidence: [] }] });

  const again = await server.request('POST', '/sessions/o/answer', { text: 'again' });
  t.match(again, { status: 409, body: { code: 'already_answered' } }, 'a task of one turn takes one answer');
  t.match(await server.request('POST', '/sessions/default/answer', { text: 'x' }), { status: 409, body: { code: 'no_task' } });
  t.match(await server.request('GET', '/sessions/default/score'), { status: 409, body: { code: 'no_task' } });
  t.match(await server.request('GET', '/sessions/nope/score'), { status: 404 });
  t.match(await server.request('POST', '/sessions/o/answer', { text: 1 }), { status: 400 });

  for (const run of [oracle, naive]) {
    const rescored = await server.request('POST', '/score', { task: TASK, journal: run.journal, answers: run.answers });
    t.equal(rescored.status, 200);
    const { session: _s, journal_complete: _c, ...live } = run.score;
    t.same(rescored.body, live, `${run.agent}: the stored journal re-scores to the live score`);
  }
  const tampered = oracle.journal.map((entry: { tool: string; changes: unknown[] }) =>
    entry.tool === 'cancel_pending_order' ? { ...entry, changes: [] } : entry,
  );
  const rescored = await server.request('POST', '/score', { task: TASK, journal: tampered, answers: oracle.answers });
  t.match(rescored.body, { success: false, state: { ok: false }, contradicted_claims: ['cancelled'] }, 'without the write, the claim is contradicted');

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

t.test('answers survive a reset only as nothing: reset clears them', async (t) => {
  const server = await startServer(t);
  await server.newSession({ id: 'r', task: TASK, kinds: [] });
  t.match(await server.request('POST', '/sessions/r/answer', { text: 'done' }), { status: 200, body: { turn: 1, turns: 1 } });
  await server.request('POST', '/sessions/r/reset');
  t.match((await server.request('GET', '/sessions/r')).body, { answers: 0 });
});

t.test('batches: N sessions with distinct seeds, their verdicts and pass^k', async (t) => {
  const server = await startServer(t, { sessions: { maxSessions: 10 } });
  const created = await server.request('POST', '/batches', { id: 'b1', task: TASK, n: 3, kinds: ['transient_failure'] });
  t.equal(created.status, 201);
  t.same(
    created.body.sessions.map((row: { id: string; seed: string; status: string }) => [row.id, row.seed, row.status]),
    [
      ['b1.1', '1', 'running'],
      ['b1.2', '2', 'running'],
      ['b1.3', '3', 'running'],
    ],
  );
  const dispatcher = await withAgent(t);
  // One session answered by the oracle, one by the naive agent: the plans run inside the batch's sessions.
  const view = (await server.request('GET', `/tasks/${TASK}`)).body;
  for (const [session, agent] of [
    ['b1.1', 'oracle'],
    ['b1.2', 'naive'],
  ] as const) {
    const said = await plans[TASK]!(agentOf(agent, toolClient(dispatcher, server.origin, 'retail', session), view)).catch(
      () => 'I could not complete the request.',
    );
    await server.request('POST', `/sessions/${session}/answer`, { text: String(said) });
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
  t.match(await server.request('POST', '/batches', { task: TASK, n: 2, seeds: ['1', '1'] }), { status: 400, body: { field: 'seeds' } });
  t.match(await server.request('POST', '/batches', { task: TASK, n: 65 }), { status: 400 });
  t.match(await server.request('POST', '/batches', { task: 'nope/001', n: 1 }), { status: 404 });
  t.match(await server.request('GET', '/batches/__proto__'), { status: 404, body: { code: 'batch_not_found' } });
  const fresh = await server.request('POST', '/batches', { task: TASK, n: 1, seeds: ['x'] });
  t.match(fresh.body, { id: /^batch-[0-9a-f]{8}$/, sessions: [{ seed: 'x' }] });
});

t.test("re-scoring replays the task's writes in the server's compatibility mode (TAU2_COMPAT), as its sessions ran them", async (t) => {
  const book = new TaskBook(domains, await fixtureBases());
  const asked: string[] = [];
  const expected = book.expected.bind(book);
  book.expected = (task, compat) => {
    asked.push(compat);
    return expected(task, compat);
  };
  scoreJournal(book.get(TASK)!, [], [], book, 'strict');
  t.same(asked, ['strict']);
  const server = await startServer(t, { sessions: { compat: 'strict' } });
  t.equal(server.app.sessions.compat, 'strict', 'the store tells its mode');
});
