import { Agent } from 'undici';
import { loopbackServer } from './loopback-server.js';
import { plans } from '../agents/plans/index.js';
import { matrixTable, writeReport } from '../agents/report.js';
import { validity } from '../agents/validity.js';

// npm run validity [-- --tasks 'retail/*' ...] [--seeds 1,2,3] [--concurrency 8] [--again-via openenv]: runs the validity matrix against an
// in-process server on loopback (latency hazards answer at once: the schedule, not the wall clock, decides),
// prints it and writes reports/validity.json and reports/validity.html. Exit 1 when a check fails.

function flags(argv: readonly string[]): { tasks: string[]; seeds?: number[]; concurrency: number; out: string; againVia: 'http' | 'openenv' } {
  const tasks: string[] = [];
  let seeds: number[] | undefined;
  let concurrency = 8;
  let out = 'reports';
  let againVia: 'http' | 'openenv' = 'http';
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i]!.split('=', 2) as [string, string | undefined];
    const value = () => inline ?? argv[++i] ?? '';
    if (name === '--tasks') tasks.push(...value().split(','));
    else if (name === '--seeds') seeds = value().split(',').map(Number);
    else if (name === '--concurrency') concurrency = Number(value());
    else if (name === '--out') out = value();
    else if (name === '--again-via') againVia = value() === 'openenv' ? 'openenv' : 'http';
    else throw new Error(`unknown option ${name} (use --tasks, --seeds, --concurrency, --out, --again-via http|openenv)`);
  }
  return { tasks, ...(seeds ? { seeds } : {}), concurrency, out, againVia };
}

const options = flags(process.argv.slice(2));
const { base, close } = await loopbackServer({ instantLatency: true });
const dispatcher = new Agent({ connections: 16 });
try {
  const { report } = await validity(dispatcher, base, plans, {
    patterns: options.tasks,
    concurrency: options.concurrency,
    againVia: options.againVia,
    ...(options.seeds ? { seeds: options.seeds } : {}),
  });
  console.log(matrixTable(report.matrix));
  console.log('');
  for (const drop of report.matrix.drops)
    if (drop.drop < 50) console.log(`naive drop below 50 points: ${drop.domain} ${drop.kind} (${drop.hazardFree} → ${drop.underKind})`);
  for (const failure of report.matrix.oracleFailures) console.log(`oracle failed: ${failure.task}#${failure.seed} under ${failure.condition}: ${failure.why}`);
  if (report.determinism && !report.determinism.identical)
    console.log(`journals differ between concurrency 1 and ${options.concurrency} (${options.againVia}): ${report.determinism.differing.join('; ')}`);
  const files = writeReport(options.out, 'validity', report);
  console.log(
    `tasks: ${Object.entries(report.tasks)
      .map(([d, n]) => `${d} ${n}`)
      .join(', ')}; wrote ${files.json} and ${files.html}`,
  );
  const failed = report.matrix.oracleFailures.length > 0 || report.matrix.drops.some((drop) => drop.drop < 50) || report.determinism?.identical === false;
  process.exitCode = failed ? 1 : 0;
} finally {
  await dispatcher.close();
  await close();
}
