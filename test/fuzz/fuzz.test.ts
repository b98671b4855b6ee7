import fc from 'fast-check';
import t from 'tap';
import { domains } from '../../domains/index.js';
import { jsonSchemaOf } from '../../lib/json-schema.js';
import { INHERITED } from '../helpers/keys.js';
import { fixtureBases, startServer } from '../helpers/server.js';
import { casesOf, type FuzzTool } from './cases.js';
import { Checker, type Tally } from './checker.js';
import { valuePools } from './pools.js';

// Property-based fuzzing of every tool of every domain, driven by each tool's own schema (bounded for
// CI; `npm run fuzz -- --requests 100000` is the long version against a live server). FUZZ_RUNS scales it.

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 3000);
const SEED = Number(process.env['FUZZ_SEED'] ?? 20261123);
const tools: FuzzTool[] = domains.flatMap((domain) =>
  domain.tools.map((tool) => ({ domain: domain.name, name: tool.name, input: jsonSchemaOf(tool.input, 'input') })),
);

const summary = (tally: Tally) =>
  `${tally.requests} requests; statuses ${[...tally.byStatus]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}×${n}`)
    .join(' ')}; ` + `5xx injected ${tally.injected5xx}, unexplained ${tally.unexplained5xx}; data changed on a 4xx ${tally.changedOn4xx}`;

const firstViolations = (tally: Tally) =>
  tally.violations.slice(0, 5).map((v) => ({ rule: v.rule, case: JSON.stringify(v.case).slice(0, 400), status: v.status, body: v.body }));
/** fast-check's report, cut to a readable size (a counterexample may hold a 60 KB string). */
const shortly = (error: Error) =>
  error.message
    .split('\n')
    .slice(0, 6)
    .map((line) => (line.length > 500 ? `${line.slice(0, 500)}…` : line))
    .join(' ');

t.test('every tool, fuzzed from its schema: no 5xx, no change on a refusal, problems that name the field', async (t) => {
  const memory = 8 * 1024 * 1024;
  const server = await startServer(t, { sessions: { journalMemory: memory } });
  const pools = valuePools(await fixtureBases());
  const checker = new Checker(server.origin, { hazards: false });
  t.teardown(() => checker.close());
  const rssBefore = process.memoryUsage().rss;
  const sessions = domains.map((d) => `fuzz-${d.name}`);
  for (const domain of domains) {
    const arbitrary = fc.oneof(...tools.filter((tool) => tool.domain === domain.name).map((tool) => casesOf(tool, pools)));
    await fc
      .assert(
        fc.asyncProperty(arbitrary, async (fuzz) => (await checker.check(`fuzz-${domain.name}`, fuzz)).length === 0),
        { numRuns: Math.ceil(RUNS / domains.length), seed: SEED, endOnFailure: true },
      )
      .catch((error: Error) => t.fail(`${domain.name}: ${shortly(error)}`, { violations: firstViolations(checker.tally) }));
  }
  t.comment(summary(checker.tally));
  t.comment(`process RSS ${(rssBefore / 2 ** 20).toFixed(0)} MB before, ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB after`);
  t.same(
    checker.tally.violations.map((v) => v.rule),
    [],
    'no violation',
  );
  t.ok(checker.tally.requests >= RUNS, `${checker.tally.requests} requests`);
  t.ok(
    [...checker.tally.byStatus.keys()].some((s) => s === 200) && [...checker.tally.byStatus.keys()].some((s) => s === 400 || s === 404),
    'both successes and refusals were exercised',
  );
  t.same(await checker.stillServes(sessions), [], 'journal, state, diff, sessions and health still answer 200');
  t.ok(server.app.sessions.journalBudget.used <= memory, `journal memory ${server.app.sessions.journalBudget.used} B within JOURNAL_MEMORY ${memory} B`);
});

t.test('with every hazard on, a 5xx (or a dropped connection) is always an injected one', async (t) => {
  const server = await startServer(t, { hazardEnv: { HAZARDS: 'all', HAZARD_RATE: '0.3', HAZARD_SEED: '7' } });
  const pools = valuePools(await fixtureBases());
  const checker = new Checker(server.origin, { hazards: true });
  t.teardown(() => checker.close());
  const arbitrary = fc.oneof(...tools.map((tool) => casesOf(tool, pools)));
  await fc
    .assert(
      fc.asyncProperty(arbitrary, async (fuzz) => (await checker.check('fuzz-hazards', fuzz)).length === 0),
      { numRuns: Math.ceil(RUNS / 3), seed: SEED, endOnFailure: true },
    )
    .catch((error: Error) => t.fail(shortly(error), { violations: firstViolations(checker.tally) }));
  t.comment(summary(checker.tally));
  t.same(
    checker.tally.violations.map((v) => v.rule),
    [],
    'no violation',
  );
  t.ok(checker.tally.injected5xx > 0, 'hazards did strike');
  t.same(await checker.stillServes(['fuzz-hazards']), []);
});

t.test('hazard settings and session options, fuzzed with hostile words: 2xx or 4xx, never a broken server', async (t) => {
  const server = await startServer(t);
  // Mostly words the settings know, sometimes hostile or random ones: both paths are exercised.
  const hostile = fc.oneof(fc.constantFrom(...INHERITED, 'prototype'), fc.string({ maxLength: 10 }));
  const either = <T>(known: fc.Arbitrary<T>) => fc.oneof({ weight: 4, arbitrary: known }, { weight: 1, arbitrary: hostile });
  const kind = either(fc.constantFrom('outage', 'transient_failure', 'latency', 'notice', 'spec_drift'));
  const setting = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom('on', 'off', true, false, 0, 0.5, 1) },
    { weight: 1, arbitrary: fc.constantFrom(2, -1, 'sometimes', null) },
  );
  const spec = fc.record(
    {
      enable: fc.array(either(fc.constantFrom('all', 'none', 'failures', 'drift', 'outage')), { maxLength: 3 }),
      rate: fc.oneof({ weight: 4, arbitrary: fc.double({ min: 0, max: 1, noNaN: true }) }, { weight: 1, arbitrary: fc.constantFrom(2, 'half') }),
      kinds: fc.dictionary(kind, setting, { maxKeys: 2 }),
      tools: fc.dictionary(
        either(fc.constantFrom('track_order', 'retail__get_order_details', 'get_flight_status')),
        fc.dictionary(either(fc.constant('transient_failure')), setting, { maxKeys: 1 }),
        { maxKeys: 2 },
      ),
      hints: fc.oneof({ weight: 4, arbitrary: fc.boolean() }, { weight: 1, arbitrary: fc.constant('yes') }),
      max_consecutive: fc.integer({ min: -2, max: 120 }),
    },
    { requiredKeys: [] },
  );
  let accepted = 0;
  let runs = 0;
  await fc.assert(
    fc.asyncProperty(spec, fc.boolean(), async (settings, asSession) => {
      runs += 1;
      const reply = asSession ? await server.request('POST', '/sessions', { hazards: settings }) : await server.request('PUT', '/admin/hazards', settings);
      if (reply.status < 300) accepted += 1;
      const session = asSession && reply.status === 201 ? reply.body.id : 'fuzz-settings';
      const call = await server.call('retail', 'calculate', { expression: '2 + 2' }, session);
      const injected = call.status >= 500 && (await server.journal(session)).at(-1).hazards.length > 0;
      const report = await server.request('GET', '/hazards');
      await server.request('DELETE', '/admin/hazards');
      const answered = reply.status < 300 || (reply.status >= 400 && reply.status < 500 && typeof reply.body.detail === 'string');
      return answered && (call.status < 500 || injected) && report.status === 200;
    }),
    { numRuns: Math.ceil(RUNS / 5), seed: SEED },
  );
  t.ok(accepted > 0 && accepted < runs, `${accepted} of ${runs} settings accepted, the rest refused with a problem`);
});
