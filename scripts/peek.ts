import { Agent } from 'undici';
import { loopbackServer } from './loopback-server.js';
import { plans } from '../agents/plans/index.js';
import { runTask } from '../agents/run.js';

// tsx scripts/peek.ts <task> [kind]: runs both scripted agents on one task (the kind switched on, or none)
// against an in-process server and prints their answers, scores and journals' calls.

const [task, kind] = process.argv.slice(2);
if (!task || !Object.hasOwn(plans, task)) throw new Error(`usage: tsx scripts/peek.ts <task id with a plan> [kind]`);
const { base, close } = await loopbackServer({ instantLatency: true });
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
  await close();
}
