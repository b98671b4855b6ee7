import t from 'tap';
import { Agent } from 'undici';
import { plans } from '../../agents/plans/index.js';
import { matrixTable, writeReport } from '../../agents/report.js';
import { validity } from '../../agents/validity.js';
import { startServer } from '../helpers/server.js';

// The validity matrix, in CI: every task × (no hazards, each kind it targets) × (oracle, naive agent).
// The oracle must succeed everywhere (every hazard leaves its task solvable); the naive agent must succeed
// without hazards and lose at least 50 points under every kind in every domain (every hazard bites); the
// same seeds give the same journals whether runs go one at a time over HTTP or eight at once as OpenEnv
// episodes over WebSocket (each tool call a step), and each episode's reward is the score's verdict.

t.test('the validity matrix', async (t) => {
  const server = await startServer(t, { sessions: { maxSessions: 64 } });
  const dispatcher = new Agent({ connections: 16 });
  t.teardown(() => dispatcher.close());
  const { report, again } = await validity(dispatcher, server.origin, plans, { concurrency: 8, againVia: 'openenv' });
  t.comment(`\n${matrixTable(report.matrix)}`);

  t.same(report.matrix.oracleFailures, [], 'the oracle succeeds in every task under every condition');
  const hazardFree = report.matrix.cells.filter((cell) => cell.condition === 'none' && cell.agent === 'naive');
  t.same(
    hazardFree.filter((cell) => cell.rate !== 100),
    [],
    'the naive agent succeeds in every task without hazards',
  );
  t.ok(report.matrix.drops.length > 0, 'kinds were measured');
  t.same(
    report.matrix.drops.filter((drop) => drop.drop < 50),
    [],
    "the naive agent's success drops by at least 50 points under every kind, in every domain",
  );
  t.same(
    report.determinism,
    { identical: true, runs: report.runs.length, differing: [], concurrency: 8, via: 'openenv' },
    'journals and verdicts are identical one at a time over HTTP and eight at once over OpenEnv',
  );
  const oracle = again.filter((run) => run.agent === 'oracle');
  t.same(
    oracle.filter((run) => run.reward !== 1).map((run) => `${run.task} ${run.condition}: ${run.reward}`),
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
