import t from 'tap';
import { Agent } from 'undici';
import { plans } from '../../agents/plans/index.js';
import { matrixTable, writeReport } from '../../agents/report.js';
import { validity } from '../../agents/validity.js';
import { startServer } from '../helpers/server.js';

// The validity matrix, in CI: every task × (no hazards, each kind it targets) × (oracle, naive agent).
// The oracle must succeed everywhere (every hazard leaves its task solvable); the naive agent must succeed
// without hazards and lose at least 50 points under every kind in every domain (every hazard bites); the
// same seeds give the same journals whether runs go one at a time or eight at once.

t.test('the validity matrix', async (t) => {
  const server = await startServer(t, { sessions: { maxSessions: 64 } });
  const dispatcher = new Agent({ connections: 16 });
  t.teardown(() => dispatcher.close());
  const { report } = await validity(dispatcher, server.origin, plans, { concurrency: 8 });
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
  t.same(report.determinism, { identical: true, runs: report.runs.length, differing: [] }, 'journals are identical at concurrency 1 and 8');
  const files = writeReport(t.testdir(), 'validity', report);
  t.comment(`report written (${files.json})`);
});
