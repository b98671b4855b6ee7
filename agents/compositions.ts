import type { Dispatcher } from 'undici';
import { ORACLE, type Plan } from './agent.js';
import { exchange } from './http.js';
import { type Condition, type MatrixCellRun, type MatrixRun, type MatrixTask, runCells, whyFailed } from './matrix.js';

// Compositions: hazards met two at a time. For every pair of declared scenarios that `all` can put on the calls
// of one task (the tools its reference run calls, with and without its targets, so a fallback counts), the
// oracle runs that task with exactly the two on at rate 1 and must still succeed. Each pair runs once, on the
// first task whose calls it meets; outages only where the task targets them, as in `all`.

interface Scenario {
  domain: string;
  tool: string;
  kind: string;
}

export interface PairRun {
  task: string;
  pair: [string, string];
  success: boolean;
  why?: string;
}

const nameOf = (scenario: Scenario) => `${scenario.kind}/${scenario.tool}`;

/** The scenarios every domain declares, as GET /hazards lists them (cells a domain assigns). */
async function declaredScenarios(dispatcher: Dispatcher, base: string): Promise<Scenario[]> {
  const reply = await exchange(dispatcher, base, 'GET', '/hazards');
  if (reply.status !== 200) throw new Error(`GET /hazards answered ${reply.status}`);
  const matrix = (reply.body as { matrix: (Scenario & { assigned: boolean })[] }).matrix;
  return matrix.filter((cell) => cell.assigned).map(({ domain, tool, kind }) => ({ domain, tool, kind }));
}

const cell = (task: MatrixTask, seed: number, condition: Condition): MatrixCellRun => ({ task, seed, condition, agent: ORACLE });

/** The pairs to try: each unordered pair of scenarios, on the first task (in order) whose calls both reach. */
function pairsOf(
  tasks: readonly MatrixTask[],
  scenarios: readonly Scenario[],
  called: ReadonlyMap<string, ReadonlySet<string>>,
): { task: MatrixTask; pair: [Scenario, Scenario] }[] {
  const seen = new Set<string>();
  const pairs: { task: MatrixTask; pair: [Scenario, Scenario] }[] = [];
  for (const task of tasks) {
    const tools = called.get(task.id) ?? new Set();
    const outages = new Set(task.targets.filter((target) => target.kind === 'outage').map((target) => target.tool));
    const reached = scenarios.filter((s) => s.domain === task.domain && tools.has(s.tool) && (s.kind !== 'outage' || outages.has(s.tool)));
    for (let i = 0; i < reached.length; i++) {
      for (let j = i + 1; j < reached.length; j++) {
        const key = `${task.domain} ${nameOf(reached[i]!)} ${nameOf(reached[j]!)}`;
        if (seen.has(key)) continue;
        seen.add(key);
        pairs.push({ task, pair: [reached[i]!, reached[j]!] });
      }
    }
  }
  return pairs;
}

/** The hazard settings that switch on exactly these scenarios, at rate 1. */
function onlyThese(scenarios: readonly Scenario[]): Condition['options'] {
  const tools: Record<string, Record<string, number>> = {};
  for (const s of scenarios) tools[`${s.domain}__${s.tool}`] = { ...tools[`${s.domain}__${s.tool}`], [s.kind]: 1 };
  return { kinds: [], hazards: { tools } };
}

/** Runs the oracle on every pair; `seed` is the instance every run uses. */
export async function runCompositions(
  dispatcher: Dispatcher,
  base: string,
  tasks: readonly MatrixTask[],
  plans: Readonly<Record<string, Plan>>,
  options: { seed?: number; concurrency?: number } = {},
): Promise<PairRun[]> {
  const seed = options.seed ?? 1;
  const concurrency = options.concurrency ?? 4;
  const scenarios = await declaredScenarios(dispatcher, base);
  const reference = await runCells(
    dispatcher,
    base,
    tasks.flatMap((task) => [
      cell(task, seed, { name: 'c-none', options: { kinds: [] }, agents: [ORACLE] }),
      cell(task, seed, { name: 'c-default', options: {}, agents: [ORACLE] }),
    ]),
    plans,
    concurrency,
  );
  const called = new Map<string, Set<string>>();
  for (const run of reference) {
    const tools = called.get(run.task) ?? new Set<string>();
    for (const entry of run.journal) tools.add(entry.tool);
    called.set(run.task, tools);
  }
  const pairs = pairsOf(tasks, scenarios, called);
  const runs: MatrixRun[] = await runCells(
    dispatcher,
    base,
    pairs.map(({ task, pair }, i) => cell(task, seed, { name: `pair${i}`, options: onlyThese(pair), agents: [ORACLE] })),
    plans,
    concurrency,
    'http',
    'c',
  );
  return runs.map((run, i) => ({
    task: run.task,
    pair: [nameOf(pairs[i]!.pair[0]), nameOf(pairs[i]!.pair[1])],
    success: run.success,
    ...(run.success ? {} : { why: whyFailed(run) }),
  }));
}
