import t, { type Test } from 'tap';
import { Agent } from 'undici';
import { MAX_ADVERSARY_SUCCESS, runAdversaries } from '../../agents/adversaries.js';
import { MATRIX_SEEDS, type MatrixRun, type MatrixTask, matrixRunCount } from '../../agents/matrix.js';
import { domains } from '../../domains/index.js';
import { hazardKinds } from '../../hazards/kinds/index.js';
import { plans } from '../../agents/plans/index.js';
import { matrixTable, writeReport } from '../../agents/report.js';
import { runSpectrum, spectrumTable } from '../../agents/spectrum.js';
import { listTasks, selectTasks, validity } from '../../agents/validity.js';
import { startServer } from './server.js';

// The validity matrix and the adversaries of one domain's tasks (one test file per domain, so that they run
// side by side and each stays well within the per-file time limit).

/** What the process may take to start its server before the first run, on a loaded machine. */
const START_MS = 30_000;
/**
 * What one run of the matrix may take: three times what it took on the project's 2-core machine under a load average
 * of 5 to 9 (airline: 792 runs in 123 s, 156 ms each, mostly the latency hazards' real waits; 22 s of CPU).
 */
const RUN_MS = 450;

/**
 * The time limit of a domain's matrix: the work it does (its tasks × seeds × conditions × agents, and the second
 * pass over OpenEnv on the first seed) times what a run may take, so that a domain that grows gets the time it needs.
 */
async function validityLimit(domain: string): Promise<number> {
  const templates = (await domains.find((d) => d.name === domain)?.tasks?.()) ?? [];
  const tasks = templates.map((template) => ({ id: template.id, domain, targets: [...template.targets] }));
  const runs = matrixRunCount(tasks, MATRIX_SEEDS) + matrixRunCount(tasks, MATRIX_SEEDS.slice(0, 1));
  const limit = START_MS + runs * RUN_MS;
  t.comment(`${domain}: ${runs} runs, time limit ${Math.round(limit / 1000)} s`);
  return limit;
}

/**
 * The validity matrix, in CI: every task × seeds 1–3 × (no hazards, each kind it targets, all its targets,
 * every hazard at 0.5 and 1) × (oracle, naive agent). The oracle must succeed everywhere (every hazard, alone
 * or in company, leaves its task solvable); the naive agent must succeed without hazards and lose at least 50
 * points under every kind (every hazard bites); the same seeds give the same journals whether runs go one at a
 * time over HTTP or eight at once as OpenEnv episodes over WebSocket in sessions of other ids, and each
 * episode's reward is the score's verdict.
 */
export async function validityMatrix(domain: string): Promise<void> {
  t.setTimeout(await validityLimit(domain));
  t.test(`the validity matrix of ${domain}`, async (t) => {
    const server = await startServer(t, { sessions: { maxSessions: 64 } });
    const dispatcher = new Agent({ connections: 16 });
    t.teardown(() => dispatcher.close());
    // The second pass (other session ids, eight at once, over OpenEnv) on the first seed: it proves determinism.
    const { report, runs, again } = await validity(dispatcher, server.origin, plans, {
      patterns: [`${domain}/*`],
      concurrency: 8,
      againVia: 'openenv',
      seeds: MATRIX_SEEDS,
      againSeeds: MATRIX_SEEDS.slice(0, 1),
      firstConcurrency: 4,
    });
    t.comment(`\n${matrixTable(report.matrix)}`);
    t.ok(report.runs.length > 0, `${report.runs.length} runs`);
    t.same(report.matrix.oracleFailures, [], 'the oracle succeeds in every task, on every seed, under every condition');
    const hazardFree = report.matrix.cells.filter((cell) => cell.condition === 'none' && cell.agent === 'naive');
    t.same(
      hazardFree.filter((cell) => cell.rate !== 100),
      [],
      'the naive agent succeeds in every task without hazards',
    );
    const conditions = new Set(report.matrix.cells.map((cell) => cell.condition));
    for (const condition of ['none', 'all@0.5', 'all@1']) t.ok(conditions.has(condition), `the matrix runs ${condition}`);
    t.ok(report.matrix.drops.length > 0, 'kinds were measured');
    t.same(
      report.matrix.drops.filter((drop) => drop.drop < 50),
      [],
      "the naive agent's success drops by at least 50 points under every kind",
    );
    const tasks = selectTasks(await listTasks(dispatcher, server.origin), [`${domain}/*`]);
    expectEveryKindStrikes(t, tasks, runs, 'all@1');
    t.same(
      report.determinism,
      { identical: true, runs: again.length, differing: [], concurrency: 8, via: 'openenv' },
      'journals and verdicts are identical four at a time over HTTP and eight at once over OpenEnv in sessions of other ids',
    );
    const oracle = again.filter((run) => run.agent === 'oracle');
    t.same(
      oracle.filter((run) => run.reward !== 1).map((run) => `${run.task}#${run.seed} ${run.condition}: ${run.reward}`),
      [],
      'every oracle episode over OpenEnv ends with reward 1 on its last step',
    );
    t.ok(
      again.some((run) => run.agent === 'naive' && run.reward === 0),
      'naive episodes that fail end with reward 0',
    );
    const files = writeReport(t.testdir(), 'validity', report);
    t.comment(`report written (${files.json})`);
  });
}

/**
 * With every kind on at rate 1, each kind that ends a call and that the tasks target strikes some of their calls:
 * where several such kinds could end one call, the engine's seeded draw shares the hits among them instead of the
 * first in stage order taking them all. (Other kinds strike on what the agent does, which the oracle avoids: a
 * decoy it never calls, a requirement it always meets.)
 */
function expectEveryKindStrikes(t: Test, tasks: readonly MatrixTask[], runs: readonly MatrixRun[], condition: string): void {
  const hits: Record<string, number> = {};
  for (const run of runs.filter((r) => r.condition === condition)) {
    for (const entry of run.journal) for (const event of entry.hazards ?? []) hits[event.kind] = (hits[event.kind] ?? 0) + 1;
  }
  const endingCalls = new Set<string>(hazardKinds.filter((kind) => kind.endsCall).map((kind) => kind.kind));
  const targeted = [...new Set(tasks.flatMap((task) => task.targets.map((target) => target.kind)))].filter((kind) => endingCalls.has(kind)).sort();
  t.comment(`hits per kind under ${condition}: ${targeted.map((kind) => `${kind} ${hits[kind] ?? 0}`).join(', ')}`);
  t.same(
    targeted.filter((kind) => !hits[kind]),
    [],
    `under ${condition}, every kind that ends calls and that the tasks target strikes (${targeted.length} kinds)`,
  );
}

/**
 * The adversaries of the score and the skill spectrum, in CI: each adversary succeeds in at most 5 % of its
 * runs on the tasks its trick applies to (seeds 1–3, default hazards), and under every kind the tasks target,
 * the oracle without the kind's skills fails every run.
 */
export function adversaries(domain: string): void {
  t.test(`the adversaries and the skill spectrum of ${domain}`, async (t) => {
    const server = await startServer(t, { sessions: { maxSessions: 64 } });
    const dispatcher = new Agent({ connections: 16 });
    t.teardown(() => dispatcher.close());
    const tasks = selectTasks(await listTasks(dispatcher, server.origin), [`${domain}/*`]);
    const { rows } = await runAdversaries(dispatcher, server.origin, tasks, plans);
    t.comment(`\n${rows.map((row) => `${row.adversary.padEnd(16)}${String(row.runs).padEnd(6)}${row.rate} %`).join('\n')}`);
    for (const row of rows) {
      t.ok(
        row.successes <= MAX_ADVERSARY_SUCCESS * row.runs,
        `${row.adversary} (${row.trick}): ${row.successes} of ${row.runs} runs succeed ${row.passed.join(', ')}`,
      );
    }
    t.ok(rows.find((row) => row.adversary === 'memorizer')!.runs >= tasks.length, 'the memorizer ran on every task');
    const { cells } = await runSpectrum(dispatcher, server.origin, tasks, plans);
    t.comment(`\n${spectrumTable(cells)}`);
    t.ok(cells.length > 0, 'kinds were measured');
    for (const cell of cells.filter((c) => c.lacksNeeded)) {
      t.equal(cell.successes, 0, `${cell.kind}: the oracle ${cell.agent.replace('without:', 'without ')} fails every run (${cell.runs})`);
    }
  });
}
