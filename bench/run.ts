// npm run bench -- [scenario …] [--json] [--list] [--duration 10] [--warmup 3] [--rounds 3] [--connections 50]
// Compiles (not for --list or a scenario it does not know, which answer at once), then measures the compiled
// server (npm start's) with autocannon over loopback, each server in its own process, pinned to core 0 with the
// load on core 1 when the machine has two cores. Every ratio is against bare fastify measured in the same run, in
// alternating rounds. Prints a table, or JSON.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { arch, availableParallelism, cpus, platform, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { PINNED, pinLoadGenerator } from './child-server.js';
import { cluster } from './scenarios/cluster.js';
import { coldStart } from './scenarios/cold-start.js';
import { durable } from './scenarios/durable.js';
import { hazards } from './scenarios/hazards.js';
import { instances } from './scenarios/instances.js';
import { memory } from './scenarios/memory.js';
import { mock } from './scenarios/mock.js';
import { proxy } from './scenarios/proxy.js';
import { read } from './scenarios/read.js';
import { sessions } from './scenarios/sessions.js';
import { write } from './scenarios/write.js';
import { type BenchContext, type Figure, met, type Scenario } from './scenario.js';

const SCENARIOS: readonly Scenario[] = [read, write, hazards, durable, sessions, memory, coldStart, instances, proxy, mock, cluster];

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    json: { type: 'boolean', default: false },
    list: { type: 'boolean', default: false },
  },
});

if (values.list) {
  for (const scenario of SCENARIOS) console.log(`${scenario.name.padEnd(12)} ${scenario.summary}`);
  process.exit(0);
}
const unknown = positionals.filter((name) => !SCENARIOS.some((scenario) => scenario.name === name));
if (unknown.length > 0) {
  console.error(`unknown scenario ${unknown.join(', ')}: ${SCENARIOS.map((s) => s.name).join(', ')}`);
  process.exit(2);
}
const chosen = positionals.length === 0 ? SCENARIOS : SCENARIOS.filter((scenario) => positionals.includes(scenario.name));

// The compiled server is what is measured; with --json, what the compiler prints goes to stderr, away from the JSON.
execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'compile'], { stdio: ['ignore', values.json ? 2 : 'inherit', 'inherit'] });

const db = JSON.parse(readFileSync(new URL('../fixtures/retail.json', import.meta.url), 'utf8')) as { orders: Record<string, { status: string }> };
const context: BenchContext = {
  load: { seconds: Number(values.duration), warmup: Number(values.warmup), connections: Number(values.connections) },
  rounds: Number(values.rounds),
  server: 'dist/bundle/main.js',
  orderId: Object.keys(db.orders)[0]!,
  pendingOrderId: Object.entries(db.orders).find(([, order]) => order.status === 'pending')![0],
  log: (line) => (values.json ? process.stderr : process.stdout).write(`${line}\n`),
};

const machine = {
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: availableParallelism(),
  memory_gb: Math.round(totalmem() / 2 ** 30),
  os: `${platform()} ${arch()}`,
  node: process.version,
  pinned: PINNED ? 'servers on core 0, load on core 1' : 'no',
};
pinLoadGenerator();
context.log(
  `${machine.cpu}, ${machine.cores} cores, ${machine.memory_gb} GB, ${machine.node}; pinned: ${machine.pinned}\n` +
    `${context.load.connections} connections, ${context.load.seconds} s per run after ${context.load.warmup} s of warm-up, ${context.rounds} rounds\n`,
);

const figures: Figure[] = [];
for (const scenario of chosen) {
  context.log(`${scenario.name}: ${scenario.summary}`);
  figures.push(...(await scenario.run(context)));
}

if (values.json) console.log(JSON.stringify({ machine, options: context.load, rounds: context.rounds, figures }, null, 2));
else console.log(`\n${table(figures)}`);
if (figures.some((figure) => met(figure) === false)) process.exitCode = 1;

function table(rows: readonly Figure[]): string {
  const cells = rows.map((figure) => {
    const verdict = met(figure);
    const target = figure.target ? `${figure.target.at === 'least' ? '≥' : '≤'} ${figure.target.value}${unitSuffix(figure.unit)}` : '';
    return [
      figure.scenario,
      figure.metric,
      `${format(figure.value)}${unitSuffix(figure.unit)}`,
      target,
      verdict === undefined ? '' : verdict ? 'met' : 'NOT MET',
      figure.note ?? '',
    ];
  });
  const header = ['scenario', 'figure', 'value', 'target', '', 'note'];
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((row) => row[i]!.length)));
  const line = (row: readonly string[]) => `| ${row.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

function format(value: number): string {
  return Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(2);
}

function unitSuffix(unit: string): string {
  return unit === '×' ? '×' : ` ${unit}`;
}
