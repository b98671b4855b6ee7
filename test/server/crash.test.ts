import t, { type Test } from 'tap';
import { type CrashReport, crashRounds } from '../crash/drive.js';

// A bounded run by default; CRASH_ROUNDS and CRASH_WRITES raise it (add --timeout 0 to tap for long runs).
const rounds = Number(process.env['CRASH_ROUNDS'] ?? 3);
const writes = Number(process.env['CRASH_WRITES'] ?? 1500);
const fsyncRounds = Math.max(2, rounds - 1);

function expectNothingLost(t: Test, report: CrashReport, expectedRounds: number): void {
  t.equal(report.rounds.length, expectedRounds, 'every round ran');
  for (const round of report.rounds) {
    const name = `round ${round.round}`;
    t.ok(round.acknowledged >= writes, `${name}: ${round.acknowledged} writes acknowledged before the kill (target ${writes})`);
    // At most 10 of each in the diff: enough to see what went wrong.
    t.same(
      round.missing.slice(0, 10),
      [],
      `${name}: every acknowledged write of this and earlier rounds is back (${round.checked} checked, ${round.missing.length} missing)`,
    );
    t.equal(round.refused, 0, `${name}: no write refused`);
    t.equal(round.found, round.acknowledged, `${name}: found = acknowledged`);
    t.same(
      round.inconsistencies.slice(0, 10),
      [],
      `${name}: journals numbered without gaps, states match their last entries (${round.inconsistencies.length} inconsistencies)`,
    );
  }
  t.equal(report.total.found, report.total.acknowledged, 'after the last restart, every acknowledged write of the run is there');
}

t.test(`process durability: ${rounds} rounds of SIGKILL under load, the last one leaving a torn record`, async (t) => {
  const report = await crashRounds({
    rounds,
    sessions: 8,
    concurrency: 32,
    writesBeforeKill: writes,
    fsync: false,
    dataDir: t.testdir(),
    tearLastLine: (round) => round === rounds,
    log: (line) => t.comment(line),
  });
  expectNothingLost(t, report, rounds);
  t.same(
    report.rounds.map((round) => round.tornLine),
    report.rounds.map((round) => round.round === rounds),
    'only the last round tore the log',
  );
});

t.test(`fsync durability: ${fsyncRounds} rounds of SIGKILL under load`, async (t) => {
  const report = await crashRounds({
    rounds: fsyncRounds,
    sessions: 8,
    concurrency: 32,
    writesBeforeKill: writes,
    fsync: true,
    dataDir: t.testdir(),
    tearLastLine: false,
    log: (line) => t.comment(line),
  });
  expectNothingLost(t, report, fsyncRounds);
});
