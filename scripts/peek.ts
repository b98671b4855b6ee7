import { Agent } from 'undici';
import { loopbackServer } from './loopback-server.js';
import { plans } from '../agents/plans/index.js';
import { NAIVE, ORACLE } from '../agents/agent.js';
import { allAt } from '../agents/matrix.js';
import { runTask } from '../agents/run.js';

// tsx scripts/peek.ts <task> [kind|default|all@0.5] [seed]: runs both scripted agents on one instance of a task (the
// kind switched on, all its targets, every hazard at a rate, or none) against an in-process server and prints their
// answers, scores and journals' calls.

const [task, kind, seedText] = process.argv.slice(2);
const seed = Number(seedText ?? 0);
if (!task || !Object.hasOwn(plans, task)) throw new Error(`usage: tsx scripts/peek.ts <task id with a plan> [kind]`);
const { base, close } = await loopbackServer({ instantLatency: true });
const targets =
  ((await (await fetch(`${base}/tasks`)).json()) as { id: string; targets: { kind: string; tool: string }[] }[]).find(
    (entry: { id: string }) => entry.id === task,
  )?.targets ?? [];
const condition =
  !kind || kind === 'none'
    ? { kinds: [] }
    : kind === 'default'
      ? {}
      : kind.startsWith('all@')
        ? allAt({ id: task, domain: '', targets }, Number(kind.slice(4)))
        : { kinds: [kind] };
const dispatcher = new Agent();
try {
  for (const agent of [ORACLE, NAIVE]) {
    const run = await runTask(dispatcher, base, task, agent, plans[task]!, { session: `peek.${agent.name}`, seed, ...condition });
    console.log(`\n== ${agent.name} (seed ${seed}): ${run.score.success ? 'success' : 'failure'}`);
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
