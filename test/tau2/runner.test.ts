import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { Agent } from 'undici';
import { tau2Command } from '../../agents/tau2/command.js';
import { tau2Flags } from '../../agents/tau2/flags.js';
import { type Tau2Report, tau2Markdown, tau2Report } from '../../agents/tau2/report.js';
import { goldOf, runTau2 } from '../../agents/tau2/run.js';
import { USER_SIDE } from '../../scoring/tau2.js';
import { loopbackServer } from '../../scripts/loopback-server.js';
import { calls, fakeEndpoint, say } from '../helpers/fake-model.js';
import { exchange } from '../../agents/http.js';

// npm run tau2 on a tiny tau2-bench-format checkout: the oracle solves every task clean and under every
// profile; the naive agent solves them clean and loses under each profile; the report counts it all.

const checkout = new URL('../fixtures/tau2-mini', import.meta.url).pathname;
const serve = (files: { fixtures: Record<string, string>; taskFiles: Record<string, string> }) => loopbackServer({ instantLatency: true, ...files });
const line = (report: Tau2Report, agent: string, domain = 'all') => report.agents.find((entry) => entry.domain === domain && entry.agent === agent)!;

t.test('GET /tasks lists the tau2 tasks of the files', async (t) => {
  const server = await serve({
    fixtures: { retail: join(checkout, 'data/tau2/domains/retail/db.json') },
    taskFiles: { retail: join(checkout, 'data/tau2/domains/retail/tasks.json') },
  });
  t.teardown(() => server.close());
  const dispatcher = new Agent();
  t.teardown(() => dispatcher.close());
  const tasks = (await exchange(dispatcher, server.base, 'GET', '/tasks?domain=retail')).body as { id: string }[];
  t.same(
    tasks.map((task) => task.id),
    ['0', '1', '2', '3', '4', '5', '8', '9', '10', '11'].map((id) => `retail/tau2-${id}`),
  );
  const one = await exchange(dispatcher, server.base, 'GET', '/tasks/retail/tau2-2');
  t.equal(one.status, 200);
  t.match((one.body as { request: string }).request, /exchange the red T-shirt/);
  t.ok((await exchange(dispatcher, server.base, 'GET', '/tasks?domain=airline')).body, 'the embedded airline tasks still load beside them');
  t.same(
    server.imports.map((entry) => [entry.domain, entry.loaded, entry.skipped.length]),
    [['retail', 10, 2]],
  );
});

for (const profile of ['network', 'writes', 'contract', 'all']) {
  t.test(`profile ${profile}: the oracle keeps 100 %, the naive agent drops`, async (t) => {
    const out = t.testdir();
    const flags = tau2Flags(['--tau2', checkout, '--profile', profile, '--k', '2', '--out', out, '--seed', '5'], {});
    const { report, files } = await tau2Command(flags, serve);
    t.equal(line(report, 'oracle').clean, 100, 'the oracle succeeds on every task hazard-free, expected refusals included');
    t.equal(line(report, 'oracle').hazard, 100, 'every task stays solvable');
    t.equal(line(report, 'oracle').pass_k_hazard, 100);
    t.equal(line(report, 'naive').clean, 100);
    t.ok(line(report, 'naive').hazard! < 100, `the naive agent drops (${line(report, 'naive').hazard} %)`);
    t.ok(report.injected_faults > 0, `faults injected (${report.injected_faults})`);
    t.same(report.infrastructure_errors, { failed_calls: 0, runs: 0, examples: [], lost: [] });
    t.same(
      report.failures.filter((f) => f.condition === 'none'),
      [],
      'no failure hazard-free: an expected refusal is no block',
    );
    t.same(
      report.domains.map((d) => [d.domain, d.loaded, d.skipped.map((s) => s.id), d.nl_assertions, d.expected_refusals.length]),
      [
        ['retail', 10, ['6', '7'], 3, 5],
        ['airline', 8, ['6'], 2, 1],
      ],
    );
    t.ok(report.kinds_recovery.some((k) => k.agent === 'oracle' && k.recovery === 100 && k.hits > 0));
    t.same(
      report.kinds_recovery.filter((k) => k.agent === 'oracle' && k.recovery < 100),
      [],
      'a hit retried through to the refusal tau2-bench gives counts as recovered',
    );
    t.ok(existsSync(files.json) && existsSync(files.markdown));
    const markdown = readFileSync(files.markdown, 'utf8');
    t.match(markdown, /\| all \| oracle \| 18 \| 72 \| 0 \| 100 \| 100 \|/);
    t.match(markdown, /retail task 9, action 9_2 exchange_delivered_order_items: 409 order_not_delivered/);
    t.match(markdown, /retail task 7: gold action apply_coupon is not a tool of retail/);
    t.equal(JSON.parse(readFileSync(files.json, 'utf8')).profile, profile);
  });
}

t.test('profile content: it hits the replay without biting it (it bites agents that read answers), and the tasks stay solvable', async (t) => {
  const flags = tau2Flags(['--tau2', checkout, '--profile', 'content', '--k', '1', '--out', t.testdir(), '--seed', '5'], {});
  const { report } = await tau2Command(flags, serve);
  t.equal(line(report, 'oracle').hazard, 100, 'every task stays solvable');
  t.equal(line(report, 'naive').hazard, 100, 'a replay of fixed gold arguments passes through content hazards');
  const kinds = new Set(report.kinds_recovery.filter((k) => k.hits > 0).map((k) => k.kind));
  t.ok(kinds.has('injection') && kinds.has('redundant'), `content kinds hit the replay: ${[...kinds].join(', ')}`);
  t.ok(report.injected_faults > 0);
});

t.test('the same seed gives the same runs', async (t) => {
  const run = async () =>
    (await tau2Command(tau2Flags(['--tau2', checkout, '--profile', 'network', '--k', '1', '--out', t.testdir(), '--tasks', 'retail/tau2-0'], {}), serve))
      .report;
  const [a, b] = [await run(), await run()];
  t.same(a.kinds_recovery, b.kinds_recovery);
  t.equal(a.injected_faults, b.injected_faults);
});

t.test('a model through a fake endpoint shows up in the report', async (t) => {
  // A model that answers at once without calling a tool: the info-only task fails, nothing is broken.
  const endpoint = await fakeEndpoint(t, (body, index) =>
    index === 0 && body.tools.length > 0 ? calls(0, ['calculate', { expression: '180 + 760' }]) : say('It is 940.'),
  );
  const flags = tau2Flags(
    ['--tau2', checkout, '--domains', 'airline', '--tasks', 'airline/tau2-4', '--profile', 'writes', '--k', '1', '--out', t.testdir()],
    {},
  );
  const { report } = await tau2Command({ ...flags, model: { baseUrl: endpoint.baseUrl, model: 'fake-model' } }, serve);
  const model = line(report, 'fake-model');
  t.ok(model, 'the model has its line');
  t.equal(model.clean, 100, 'its answer states the fact');
  t.ok(endpoint.seen.length >= 2, 'the endpoint was asked');
  t.equal(report.infrastructure_errors.runs, 0);
});

t.test('expected refusals: the gold actions tau2-bench refuses hazard-free are outcomes, not blocks', async (t) => {
  const files = {
    fixtures: { retail: join(checkout, 'data/tau2/domains/retail/db.json'), airline: join(checkout, 'data/tau2/domains/airline/db.json') },
    taskFiles: { retail: join(checkout, 'data/tau2/domains/retail/tasks.json'), airline: join(checkout, 'data/tau2/domains/airline/tasks.json') },
  };
  const server = await serve(files);
  t.teardown(() => server.close());
  const dispatcher = new Agent();
  t.teardown(() => dispatcher.close());
  const entries = (domain: 'retail' | 'airline') => JSON.parse(readFileSync(files.taskFiles[domain], 'utf8')) as unknown[];
  const refusals = (domain: string) => server.imports.find((entry) => entry.domain === domain)!.expected_refusals;
  const options = { domains: ['retail', 'airline'], profile: 'network', kinds: [], seed: 1, rate: 1, k: 1, concurrency: 2 };
  const patterns = ['retail/tau2-8', 'retail/tau2-9', 'retail/tau2-10', 'retail/tau2-11', 'airline/tau2-8'];
  const gold = new Map([...goldOf('retail', entries('retail'), refusals('retail')), ...goldOf('airline', entries('airline'), refusals('airline'))]);
  const { runs } = await runTau2(dispatcher, server.base, gold, { ...options, patterns });
  const clean = runs.filter((run) => run.condition === 'none');
  t.equal(clean.length, 10);
  for (const run of clean) {
    t.ok(run.success, `${run.task} ${run.agent} succeeds hazard-free`);
    t.equal(run.blocked, undefined);
  }
  const refusedCalls = clean
    .filter((run) => run.agent === 'naive')
    .flatMap((run) => run.journal.filter((entry) => entry.status >= 400).map((entry) => `${run.task} ${entry.tool} ${entry.status}`));
  t.same(refusedCalls, [
    'retail/tau2-8 find_user_id_by_email 404',
    'retail/tau2-8 get_order_details 404',
    'retail/tau2-9 exchange_delivered_order_items 409',
    'retail/tau2-10 return_delivered_order_items 409',
    'retail/tau2-11 cancel_pending_order 400',
    'airline/tau2-8 get_reservation_details 404',
  ]);
  // Without what the import recorded, the same refusals block: they are told apart by the hazard-free replay, not guessed.
  const blind = new Map([...goldOf('retail', entries('retail')), ...goldOf('airline', entries('airline'))]);
  const unaware = (await runTau2(dispatcher, server.base, blind, { ...options, patterns })).runs.filter((run) => run.condition === 'none');
  t.ok(
    unaware.every((run) => run.blocked !== undefined),
    'without the recorded refusals every run blocks',
  );
});

t.test("the model is told the user's side, instructions included; retail's basis does not judge communicate_info", async (t) => {
  const endpoint = await fakeEndpoint(t, () => say('Sorry, I cannot tell you that.'));
  const flags = tau2Flags(['--tau2', checkout, '--tasks', 'retail/tau2-8,airline/tau2-7', '--profile', 'writes', '--k', '1', '--out', t.testdir()], {});
  const { report } = await tau2Command({ ...flags, model: { baseUrl: endpoint.baseUrl, model: 'fake-model' } }, serve);
  const firsts = endpoint.seen.map((seen) => seen.body.messages.find((message: { role: string }) => message.role === 'user').content as string);
  const airline = firsts.find((text) => text.includes('one of your reservations'))!;
  t.ok(airline.startsWith(USER_SIDE), 'labelled as the user side');
  t.match(airline, /How the user behaves and decides \(their own instructions\):\nYou mean the trip you take with your son Leo/);
  t.match(airline, /What the user does not know:\nYou do not remember the reservation id\./);
  const model = (domain: string) => line(report, 'fake-model', domain);
  t.equal(model('retail').clean, 100, 'retail/tau2-8 (DB + NL_ASSERTION): nothing changed, its communicate_info not judged');
  t.equal(model('airline').clean, 0, 'airline/tau2-7 (DB + COMMUNICATE): the fact is not stated');
  t.match(report.failures, [{ task: 'airline/tau2-7', agent: 'fake-model', why: 'COMMUNICATE: not stated ["760"]' }]);
  t.notOk(
    report.failures.some((f) => f.task === 'retail/tau2-8'),
    'never failed on communicate_info',
  );
  t.same(report.domains.find((d) => d.domain === 'retail')!.unscored, { NL_ASSERTION: 2 });
  t.match(readFileSync(join(flags.out, 'tau2.md'), 'utf8'), /NL_ASSERTION \(an LLM judge\) and ENV_ASSERTION are not scored/);
});

t.test('runs lost to an unreachable model endpoint are infrastructure failures, left out of the rates', async (t) => {
  // The endpoint fails (503) for the task about ABC124 and answers the other: that task's runs are lost, not failed.
  const endpoint = await fakeEndpoint(t, (body) => {
    const messages = body.messages as { role: string; content: string }[];
    if (messages.some((message) => message.role === 'user' && message.content.includes('ABC124'))) return { status: 503, body: { error: 'overloaded' } };
    return messages.at(-1)!.role === 'tool' ? say('You paid 940 in all.') : calls(0, ['calculate', { expression: '180 + 760' }]);
  });
  const flags = tau2Flags(
    ['--tau2', checkout, '--domains', 'airline', '--tasks', 'airline/tau2-4,airline/tau2-8', '--profile', 'writes', '--k', '2', '--out', t.testdir()],
    {},
  );
  const { report } = await tau2Command({ ...flags, model: { baseUrl: endpoint.baseUrl, model: 'fake-model', retries: 0, sleep: async () => {} } }, serve);
  const model = line(report, 'fake-model');
  t.equal(model.tasks, 2);
  t.equal(model.errors, 4, 'airline/tau2-8: 2 conditions × 2 repetitions lost');
  t.equal(model.runs, 4, 'airline/tau2-4: all completed');
  t.equal(model.clean, 100, 'the lost runs are not counted as failures');
  t.equal(model.hazard, 100);
  t.equal(model.pass_k_clean, 100, 'pass^k over the tasks whose runs were all completed');
  t.equal(line(report, 'oracle').clean, 100);
  t.equal(report.infrastructure_errors.runs, 4);
  t.match(report.infrastructure_errors.lost, [{ task: 'airline/tau2-8', agent: 'fake-model', error: /model endpoint: HTTP 503/ }]);
  t.notOk(
    report.failures.some((f) => f.agent === 'fake-model'),
    'a lost run is not a failure of the model',
  );
  t.same(report.matrix.errors.length, 4);
  const all = tau2Report({ revision: 'r', profile: 'writes', kinds: [], seed: 1, rate: 1, k: 1, domains: [] }, [
    {
      task: 'a/tau2-1',
      domain: 'a',
      seed: 1,
      condition: 'none',
      agent: 'm',
      repetition: 0,
      success: false,
      error: 'down',
      score: null,
      journal: [],
      reward_basis: ['DB'],
    },
  ]);
  t.match(all.agents, [{ agent: 'm', runs: 0, errors: 1, clean: null, pass_k_clean: null }], 'no completed run: no rate at all');
  t.match(tau2Markdown(all), /\| all \| m \| 1 \| 0 \| 1 \| — \| — \| — \| — \|/);
});

t.test('flags: mistakes are refused with the usage', async (t) => {
  t.throws(() => tau2Flags([], {}), /--tau2 <checkout> is required/);
  t.throws(() => tau2Flags(['--tau2', 'x', '--profile', 'outage'], {}), /unknown profile or kind/);
  t.throws(() => tau2Flags(['--tau2', 'x', '--k', '0'], {}), /--k takes a whole number/);
  t.throws(() => tau2Flags(['--tau2', 'x', '--model', 'm'], {}), /go together/);
  t.equal(tau2Flags(['--tau2', 'x', '--base-url', 'u', '--model', 'm', '--api-key-env', 'MY_KEY'], { MY_KEY: 'k' }).model?.apiKey, 'k');
  await t.rejects(tau2Command(tau2Flags(['--tau2', t.testdir(), '--k', '1'], {}), serve), /not found/);
});

t.test('kind recovery: retried through a fault to the refusal tau2-bench gives is recovered; to another failure it is not', async (t) => {
  const refusal = { id: '8', action: 0, tool: 'get_order_details', status: 404, code: 'order_not_found', detail: 'Order not found' };
  const domains = [{ domain: 'retail', loaded: 1, skipped: [], nl_assertions: 0, reward_basis: {}, unscored: {}, expected_refusals: [refusal] }];
  const fault = { kind: 'transient_failure', tool: 'get_order_details', hits: [1], blocking: true, recovered: false, evidence: [] };
  const run = (task: string, last: { status: number; code: string }) => ({
    task,
    domain: 'retail',
    seed: 1,
    condition: 'network',
    agent: 'oracle',
    repetition: 0,
    success: true,
    score: { hazards: [fault], state: { ok: true }, answer: { ok: true, missing: [] }, traps: [] },
    journal: [
      { seq: 1, tool: 'get_order_details', status: 503, hazards: [{ kind: 'transient_failure' }] },
      { seq: 2, tool: 'get_order_details', status: last.status, problem: { code: last.code }, hazards: [] },
    ],
    reward_basis: ['DB' as const],
  });
  const report = tau2Report({ revision: 'r', profile: 'network', kinds: [], seed: 1, rate: 1, k: 1, domains }, [
    run('retail/tau2-8', { status: 404, code: 'order_not_found' }),
    run('retail/tau2-9', { status: 404, code: 'order_not_found' }),
  ]);
  t.same(report.kinds_recovery, [{ agent: 'oracle', kind: 'transient_failure', hits: 2, recovered: 1, recovery: 50 }], 'task 9 expects no refusal');
});
