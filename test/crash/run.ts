// `npm run crash -- --rounds 20 --writes 20000 --sessions 32 [--fsync]`: the crash driver on a
// temporary DATA_DIR, with a summary table; exits 1 when an acknowledged write is missing or a
// journal is inconsistent. The folder is kept when something is wrong, for inspection.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type CrashReport, crashRounds } from './drive.js';

const TEAR = ['every', 'last', 'none'] as const;

// `tsx test/crash/run.ts -- --rounds 6` passes the `--` on; parseArgs would take what follows as positionals.
const argv = process.argv.slice(2);
const { values } = parseArgs({
  args: argv[0] === '--' ? argv.slice(1) : argv,
  options: {
    rounds: { type: 'string', default: '6' },
    writes: { type: 'string', default: '20000' },
    sessions: { type: 'string', default: '32' },
    concurrency: { type: 'string', default: '64' },
    fsync: { type: 'boolean', default: false },
    tear: { type: 'string', default: 'last' },
    quiet: { type: 'boolean', default: false },
  },
});

function positive(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} ${text}: expected a whole number of at least 1`);
  return value;
}

const rounds = positive('rounds', values.rounds);
const tear = values.tear as (typeof TEAR)[number];
if (!TEAR.includes(tear)) throw new Error(`--tear ${values.tear}: expected one of ${TEAR.join(', ')}`);

function table(report: CrashReport): string {
  const header = ['round', 'acknowledged', 'refused', 'found', 'checked', 'missing', 'unacked', 'torn', 'restart s', 'seconds'];
  const rows = report.rounds.map((r) => [
    r.round,
    r.acknowledged,
    r.refused,
    r.found,
    r.checked,
    r.missing.length,
    r.unacknowledged,
    r.tornLine ? 'yes' : 'no',
    r.restartSeconds.toFixed(1),
    r.seconds.toFixed(1),
  ]);
  const { total } = report;
  rows.push(['total', total.acknowledged, '', total.found, total.acknowledged, total.missing.length, '', '', '', total.seconds.toFixed(1)]);
  const cells = [header, ...rows].map((row) => row.map(String));
  const widths = header.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  return cells.map((row) => row.map((cell, i) => cell.padStart(widths[i]!)).join('  ')).join('\n');
}

const dataDir = await mkdtemp(join(tmpdir(), 'wildtools-crash-'));
const options = {
  rounds,
  sessions: positive('sessions', values.sessions),
  concurrency: positive('concurrency', values.concurrency),
  writesBeforeKill: positive('writes', values.writes),
  fsync: values.fsync,
  dataDir,
  tearLastLine: (round: number) => tear === 'every' || (tear === 'last' && round === rounds),
  ...(values.quiet ? {} : { log: (line: string) => process.stderr.write(`${line}\n`) }),
};
console.log(
  `crash run: ${options.rounds} rounds × ${options.writesBeforeKill} writes, ${options.sessions} sessions, ${options.concurrency} in ` +
    `flight, ${options.fsync ? 'DATA_FSYNC=1' : 'process durability'}, torn record: ${tear}`,
);
const report = await crashRounds(options);
console.log(table(report));

const { missing, inconsistencies } = report.total;
for (const write of missing.slice(0, 20))
  console.log(`missing: round ${write.round} ${write.session} #${write.seq} ${JSON.stringify(write.args)} journaled as ${JSON.stringify(write.journaled)}`);
for (const problem of inconsistencies.slice(0, 20)) console.log(`inconsistent: ${problem}`);
if (missing.length > 0 || inconsistencies.length > 0) {
  console.log(`FAILED: ${missing.length} acknowledged writes missing, ${inconsistencies.length} inconsistencies; DATA_DIR kept at ${dataDir}`);
  process.exit(1);
}
await rm(dataDir, { recursive: true, force: true });
console.log('ok: every acknowledged write survived every crash');
