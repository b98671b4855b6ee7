import type { Report } from './report.js';
import { matrixTable } from './report.js';
import { taskPattern } from './validity.js';

/** The largest seed a task instance takes (the server's). */
const MAX_SEED = 2_147_483_647;

// npm run eval's options and what it prints.

const EVAL_USAGE =
  "npm run eval -- --base-url URL --model NAME [--tasks 'retail/*' ...] [--api-key K | env OPENAI_API_KEY] [--kinds none,all,default|list] " +
  '[--seeds 1,2,3] [--concurrency 4] [--max-steps 30] [--server URL] [--out reports] [--temperature 0]';

export interface EvalFlags {
  baseUrl: string;
  model: string;
  apiKey?: string;
  tasks: string[];
  kinds: string[];
  /** The instances every task runs on (the same for every model). */
  seeds: number[];
  concurrency: number;
  maxSteps: number;
  /** A running wildtools; without it the command starts one in process. */
  server?: string;
  out: string;
  temperature: number;
}

const positive = (name: string, text: string) => {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} takes a whole number from 1, not ${JSON.stringify(text)}`);
  return value;
};

/** The options of `npm run eval`; throws with the usage on a mistake. */
export function evalFlags(argv: readonly string[], env: NodeJS.ProcessEnv): EvalFlags {
  const tasks: string[] = [];
  let kinds = ['none', 'all'];
  let seeds = [1];
  let baseUrl = '';
  let model = '';
  let apiKey = env['OPENAI_API_KEY'] || undefined;
  let server: string | undefined;
  let concurrency = 4;
  let maxSteps = 30;
  let out = 'reports';
  let temperature = 0;
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i]!.split(/=(.*)/s, 2) as [string, string | undefined];
    const value = () => {
      const found = inline ?? argv[++i];
      if (found === undefined) throw new Error(`${name} needs a value\nusage: ${EVAL_USAGE}`);
      return found;
    };
    if (name === '--base-url') baseUrl = value();
    else if (name === '--model') model = value();
    else if (name === '--api-key') apiKey = value();
    else if (name === '--tasks') {
      const patterns = value().split(',');
      // A malformed pattern is a usage mistake: said now, not after the server has started.
      for (const pattern of patterns) taskPattern(pattern);
      tasks.push(...patterns);
    } else if (name === '--kinds') kinds = value().split(',');
    else if (name === '--seeds') {
      const text = value();
      seeds = text.split(',').map(Number);
      if (!/^\d{1,10}(,\d{1,10})*$/.test(text) || seeds.some((seed) => seed > MAX_SEED))
        throw new Error(`--seeds takes whole numbers from 0 to ${MAX_SEED} separated by commas, not ${JSON.stringify(text)}`);
    } else if (name === '--concurrency') concurrency = positive(name, value());
    else if (name === '--max-steps') maxSteps = positive(name, value());
    else if (name === '--server') server = value();
    else if (name === '--out') out = value();
    else if (name === '--temperature') {
      const text = value();
      temperature = Number(text);
      if (text.trim() === '' || !Number.isFinite(temperature)) throw new Error(`--temperature takes a number, not ${JSON.stringify(text)}`);
    } else throw new Error(`unknown option ${name}\nusage: ${EVAL_USAGE}`);
  }
  if (!baseUrl || !model) throw new Error(`--base-url and --model are required\nusage: ${EVAL_USAGE}`);
  return {
    baseUrl,
    model,
    ...(apiKey ? { apiKey } : {}),
    tasks,
    kinds,
    seeds,
    concurrency,
    maxSteps,
    ...(server ? { server } : {}),
    out,
    temperature,
  };
}

/** What the command prints: the matrix, the model's drop per kind, the failed runs with why, the pass counts. */
export function evalSummary(report: Report): string {
  const lines = [matrixTable(report.matrix), ''];
  const drops = report.matrix.drops.filter((drop) => drop.domain === 'all');
  if (drops.length > 0) {
    lines.push(`drop per kind (points below hazard-free, all domains):`);
    for (const drop of drops) lines.push(`  ${drop.kind.padEnd(24)}${drop.hazardFree} → ${drop.underKind}  (${drop.drop})`);
    lines.push('');
  }
  const failures = report.runs.filter((run) => !run.success && run.error === undefined);
  if (failures.length > 0) {
    lines.push(`failed runs (${failures.length}):`);
    for (const run of failures) lines.push(`  ${run.task}${run.seed === undefined ? '' : `#${run.seed}`} ${run.condition}: ${run.why}`);
    lines.push('');
  }
  const errors = report.runs.filter((run) => run.error !== undefined);
  if (errors.length > 0) {
    lines.push(`runs not completed, left out of every rate (${errors.length}):`);
    for (const run of errors) lines.push(`  ${run.task}${run.seed === undefined ? '' : `#${run.seed}`} ${run.condition}: ${run.error}`);
    lines.push('');
  }
  const passes = report.passes;
  if (passes) {
    lines.push(
      `passed ${passes.passed} of ${passes.runs} runs; per task: ${passes.tasks.map((task) => `${task.task} ${task.passed}/${task.runs}`).join(', ')}`,
    );
  }
  return lines.join('\n');
}
