import { Agent } from 'undici';
import { plans } from '../agents/plans/index.js';
import { runTask } from '../agents/run.js';
import { domains } from '../domains/index.js';
import { hazardsFromEnvironment } from '../hazards/setup.js';
import { buildApp } from '../server/app.js';
import { loadBases } from '../server/load.js';

// tsx scripts/peek.ts <task> [kind]: runs both scripted agents on one task (the kind switched on, or none)
// against an in-process server and prints their answers, scores and journals' calls.

const [task, kind] = process.argv.slice(2);
if (!task || !Object.hasOwn(plans, task)) throw new Error(`usage: tsx scripts/peek.ts <task id with a plan> [kind]`);
const hazards = hazardsFromEnvironment({}, domains, async () => {});
const app = await buildApp({
  domains,
  bases: await loadBases(domains),
  sessions: { ttlMs: 3_600_000, maxSessions: 100, defaultSeed: '0' },
  hazards: hazards.runtime,
});
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const base = typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : '';
const dispatcher = new Agent();
try {
  for (const agent of ['oracle', 'naive'] as const) {
    const run = await runTask(dispatcher, base, task, agent, plans[task]!, { session: `peek.${agent}`, kinds: kind ? [kind] : [] });
    console.log(`\n== ${agent}: ${run.score.success ? 'success' : 'failure'}`);
    for (const entry of run.journal) {
      const events = entry.hazards.map((event: { kind: string }) => event.kind).join(',');
      console.log(`  #${entry.seq} ${entry.tool} ${JSON.stringify(entry.args)} → ${entry.status}${events ? ` [${events}]` : ''}`);
    }
    console.log(`  answers: ${JSON.stringify(run.answers)}`);
    const { hazards: verdicts, state, answer, traps } = run.score;
    console.log(
      `  state: ${JSON.stringify(state)}\n  answer: ${JSON.stringify(answer)}\n  traps: ${JSON.stringify(traps)}\n  hazards: ${JSON.stringify(verdicts)}`,
    );
  }
} finally {
  await dispatcher.close();
  await app.close();
}
