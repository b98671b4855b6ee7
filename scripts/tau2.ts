import { tau2Command } from '../agents/tau2/command.js';
import { tau2Flags } from '../agents/tau2/flags.js';
import { tau2Markdown } from '../agents/tau2/report.js';
import { loopbackServer } from './loopback-server.js';

// npm run tau2 -- --tau2 <checkout> [...]: tau2-bench's retail and airline tasks, served from the checkout's
// db.json and tasks.json by a wildtools in this process, run by the scripted oracle and naive agent (and a
// model with --base-url and --model), clean and under a hazard profile, k times each. Prints the report and
// writes <out>/tau2.json and <out>/tau2.md. Exit 1 when a run could not be completed.

let flags: ReturnType<typeof tau2Flags>;
try {
  flags = tau2Flags(process.argv.slice(2), process.env);
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}

// A model gets real latency delays; the scripted agents do not wait for them.
const { report, files } = await tau2Command(flags, (files) => loopbackServer({ instantLatency: flags.model === undefined, ...files }));
console.log(tau2Markdown(report));
console.log(`wrote ${files.json} and ${files.markdown}`);
process.exitCode = report.infrastructure_errors.runs > 0 ? 1 : 0;
