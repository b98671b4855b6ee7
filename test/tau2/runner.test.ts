import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { Agent } from 'undici';
import { tau2Command } from '../../agents/tau2/command.js';
import { tau2Flags } from '../../agents/tau2/flags.js';
import { loopbackServer } from '../../scripts/loopback-server.js';
import { calls, fakeEndpoint, say } from '../helpers/fake-model.js';
import { exchange } from '../../agents/http.js';

// npm run tau2 on a tiny tau2-bench-format checkout: the oracle solves every task clean and under every
// profile; the naive agent solves them clean and loses under each profile; the report counts it all.

const checkout = new URL('../fixtures/tau2-mini', import.meta.url).pathname;
const serve = (files: { fixtures: Record<string, string>; taskFiles: Record<string, string> }) => loopbackServer({ instantLatency: true, ...files });
const line = (report: { agents: { domain: string; agent: string; clean: number; hazard: number; pass_k_hazard: number }[] }, agent: string) =>
  report.agents.find((entry) => entry.domain === 'all' && entry.agent === agent)!;

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
    ['retail/tau2-0', 'retail/tau2-1', 'retail/tau2-2', 'retail/tau2-3', 'retail/tau2-4', 'retail/tau2-5'],
  );
  const one = await exchange(dispatcher, server.base, 'GET', '/tasks/retail/tau2-2');
  t.equal(one.status, 200);
  t.match((one.body as { request: string }).request, /exchange the red T-shirt/);
  t.ok((await exchange(dispatcher, server.base, 'GET', '/tasks?domain=airline')).body, 'the embedded airline tasks still load beside them');
  t.same(
    server.imports.map((entry) => [entry.domain, entry.loaded, entry.skipped.length]),
    [['retail', 6, 2]],
  );
});

for (const profile of ['network', 'writes', 'contract', 'all']) {
  t.test(`profile ${profile}: the oracle keeps 100 %, the naive agent drops`, async (t) => {
    const out = t.testdir();
    const flags = tau2Flags(['--tau2', checkout, '--profile', profile, '--k', '2', '--out', out, '--seed', 's'], {});
    const { report, files } = await tau2Command(flags, serve);
    t.equal(line(report, 'oracle').clean, 100);
    t.equal(line(report, 'oracle').hazard, 100, 'every task stays solvable');
    t.equal(line(report, 'oracle').pass_k_hazard, 100);
    t.equal(line(report, 'naive').clean, 100);
    t.ok(line(report, 'naive').hazard < 100, `the naive agent drops (${line(report, 'naive').hazard} %)`);
    t.ok(report.injected_faults > 0, `faults injected (${report.injected_faults})`);
    t.same(report.infrastructure_errors, { failed_calls: 0, runs: 0, examples: [] });
    t.same(
      report.domains.map((d) => [d.domain, d.loaded, d.skipped.map((s) => s.id), d.nl_assertions]),
      [
        ['retail', 6, ['6', '7'], 1],
        ['airline', 5, ['5', '6'], 2],
      ],
    );
    t.ok(report.kinds_recovery.some((k) => k.agent === 'oracle' && k.recovery === 100 && k.hits > 0));
    t.ok(existsSync(files.json) && existsSync(files.markdown));
    const markdown = readFileSync(files.markdown, 'utf8');
    t.match(markdown, /\| all \| oracle \| 11 \| 100 \| 100 \|/);
    t.match(markdown, /retail task 7: gold action apply_coupon is not a tool of retail/);
    t.equal(JSON.parse(readFileSync(files.json, 'utf8')).profile, profile);
  });
}

t.test('profile content: it hits the replay without biting it (it bites agents that read answers), and the tasks stay solvable', async (t) => {
  const flags = tau2Flags(['--tau2', checkout, '--profile', 'content', '--k', '1', '--out', t.testdir(), '--seed', 's'], {});
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

t.test('flags: mistakes are refused with the usage', async (t) => {
  t.throws(() => tau2Flags([], {}), /--tau2 <checkout> is required/);
  t.throws(() => tau2Flags(['--tau2', 'x', '--profile', 'outage'], {}), /unknown profile or kind/);
  t.throws(() => tau2Flags(['--tau2', 'x', '--k', '0'], {}), /--k takes a whole number/);
  t.throws(() => tau2Flags(['--tau2', 'x', '--model', 'm'], {}), /go together/);
  t.equal(tau2Flags(['--tau2', 'x', '--base-url', 'u', '--model', 'm', '--api-key-env', 'MY_KEY'], { MY_KEY: 'k' }).model?.apiKey, 'k');
  await t.rejects(tau2Command(tau2Flags(['--tau2', t.testdir(), '--k', '1'], {}), serve), /not found/);
});
