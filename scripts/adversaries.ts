import { Agent } from 'undici';
import { ADVERSARIES, MAX_ADVERSARY_SUCCESS, runAdversaries } from '../agents/adversaries.js';
import { plans } from '../agents/plans/index.js';
import { runSpectrum, spectrumTable } from '../agents/spectrum.js';
import { listTasks, selectTasks } from '../agents/validity.js';
import { loopbackServer } from './loopback-server.js';

// npm run adversaries [-- --tasks 'retail/*' ...] [--seeds 1,2,3] [--full]: the scripted adversaries of the score
// (each must succeed in at most 5 % of its runs) and the skill spectrum (an agent lacking the skills a kind
// needs must fail under it; --full adds every other skill-lacking agent to each kind's row), against an
// in-process server. Exit 1 when a check fails.

const argv = process.argv.slice(2);
const patterns: string[] = [];
let seeds: number[] | undefined;
let full = false;
for (let i = 0; i < argv.length; i++) {
  const [name, inline] = argv[i]!.split('=', 2) as [string, string | undefined];
  const value = () => inline ?? argv[++i] ?? '';
  if (name === '--tasks') patterns.push(...value().split(','));
  else if (name === '--seeds') seeds = value().split(',').map(Number);
  else if (name === '--full') full = true;
  else throw new Error(`unknown option ${name} (use --tasks, --seeds, --full)`);
}

const { base, close } = await loopbackServer({ instantLatency: true });
const dispatcher = new Agent({ connections: 16 });
try {
  const tasks = selectTasks(await listTasks(dispatcher, base), patterns);
  const { rows } = await runAdversaries(dispatcher, base, tasks, plans, seeds ? { seeds } : {});
  console.log('adversary       runs  success %   trick');
  for (const row of rows) console.log(`${row.adversary.padEnd(16)}${String(row.runs).padEnd(6)}${String(row.rate).padEnd(12)}${row.trick}`);
  const beaten = rows.filter((row) => row.successes > MAX_ADVERSARY_SUCCESS * row.runs);
  for (const row of beaten) console.log(`${row.adversary} succeeds too often: ${row.passed.join(', ')}`);
  const { cells } = await runSpectrum(dispatcher, base, tasks, plans, { ...(seeds ? { seeds } : {}), full });
  console.log(`\n${spectrumTable(cells)}\n(* the agent lacks the skills the kind needs: it must fail)`);
  const passed = cells.filter((cell) => cell.lacksNeeded && cell.successes > 0);
  for (const cell of passed) console.log(`${cell.kind} is passed ${cell.rate} % of the time by ${cell.agent}`);
  console.log(`\n${ADVERSARIES.length} adversaries, ${cells.length} spectrum cells over ${tasks.length} tasks`);
  process.exitCode = beaten.length > 0 || passed.length > 0 ? 1 : 0;
} finally {
  await dispatcher.close();
  await close();
}
