import { Agent } from 'undici';
import { modelSlug, NothingSelected, runEval } from '../agents/eval.js';
import { evalFlags, evalSummary } from '../agents/eval-cli.js';
import { writeReport } from '../agents/report.js';
import { loopbackServer } from './loopback-server.js';

// npm run eval -- --base-url URL --model NAME [...]: drives a model behind an OpenAI-compatible chat
// endpoint through the selected tasks, each hazard-free and under each kind it targets, against a running
// wildtools (--server) or one started in process on loopback (latency hazards take their real time).
// Prints the matrix and writes reports/eval-<model>.json and .html. Exit 1 when a run could not be completed.

let options: ReturnType<typeof evalFlags>;
try {
  options = evalFlags(process.argv.slice(2), process.env);
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}

const server = options.server === undefined ? await loopbackServer({ instantLatency: false }) : undefined;
const base = server?.base ?? options.server!.replace(/\/+$/, '');
const dispatcher = new Agent({ connections: Math.max(16, 2 * options.concurrency) });
try {
  const { report } = await runEval(
    dispatcher,
    base,
    { baseUrl: options.baseUrl, model: options.model, temperature: options.temperature, ...(options.apiKey ? { apiKey: options.apiKey } : {}) },
    { patterns: options.tasks, kinds: options.kinds, seeds: options.seeds, concurrency: options.concurrency, maxSteps: options.maxSteps },
  );
  console.log(evalSummary(report));
  const files = writeReport(options.out, `eval-${modelSlug(options.model)}`, report);
  console.log(`wrote ${files.json} and ${files.html}`);
  process.exitCode = report.runs.some((run) => run.error !== undefined) ? 1 : 0;
} catch (error) {
  if (!(error instanceof NothingSelected)) throw error;
  console.error(error.message);
  process.exitCode = 2;
} finally {
  await dispatcher.close();
  await server?.close();
}
