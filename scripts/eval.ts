import { Agent } from 'undici';
import { modelSlug, runEval } from '../agents/eval.js';
import { evalFlags, evalSummary } from '../agents/eval-cli.js';
import { writeReport } from '../agents/report.js';
import { domains } from '../domains/index.js';
import { hazardsFromEnvironment } from '../hazards/setup.js';
import { buildApp } from '../server/app.js';
import { loadBases } from '../server/load.js';

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

let app: Awaited<ReturnType<typeof buildApp>> | undefined;
let base = options.server?.replace(/\/+$/, '');
if (base === undefined) {
  const hazards = hazardsFromEnvironment({}, domains);
  app = await buildApp({
    domains,
    bases: await loadBases(domains),
    sessions: { ttlMs: 3_600_000, maxSessions: 1000, defaultSeed: hazards.seed ?? '0' },
    hazards: hazards.runtime,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  base = typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : '';
}
const dispatcher = new Agent({ connections: Math.max(16, 2 * options.concurrency) });
try {
  const { report } = await runEval(
    dispatcher,
    base,
    { baseUrl: options.baseUrl, model: options.model, temperature: options.temperature, ...(options.apiKey ? { apiKey: options.apiKey } : {}) },
    { patterns: options.tasks, kinds: options.kinds, concurrency: options.concurrency, maxSteps: options.maxSteps },
  );
  console.log(evalSummary(report));
  const files = writeReport(options.out, `eval-${modelSlug(options.model)}`, report);
  console.log(`wrote ${files.json} and ${files.html}`);
  process.exitCode = report.runs.some((run) => run.error !== undefined) ? 1 : 0;
} finally {
  await dispatcher.close();
  await app?.close();
}
