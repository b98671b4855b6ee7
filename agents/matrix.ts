import type { Dispatcher } from 'undici';
import { type AgentProfile, NAIVE, ORACLE, type Plan } from './agent.js';
import { mapInOrder } from './pool.js';
import { type RunOptions, type RunResult, runTask } from './run.js';

// The validity matrix: every task × seeds × conditions × agents. It proves that the measure is valid: the
// oracle always succeeds (every hazard, alone, with the task's other targets, or with every hazard on, leaves
// its task solvable), and the naive agent's success falls under every kind (every hazard bites). Its summary
// takes any agents (a model's eval has one): success by domain, condition and agent, and one agent's drop per kind.

export interface MatrixTask {
  id: string;
  domain: string;
  targets: { kind: string; tool: string }[];
}

export const NONE = 'none';
/** The task's own setup: every scenario it targets on together. */
export const DEFAULT = 'default';
/**
 * Every hazard kind on its assigned tools (HAZARDS=all), at these rates; outages only where the task targets
 * them: an incident that takes away a tool a task has no other source for (live tracking, say) leaves nothing
 * to measure but the incident.
 */
const ALL_RATES = [0.5, 1] as const;

/** The settings of `all@rate` for a task: every kind at the rate, outages only on the tools the task targets with one. */
export const allAt = (task: MatrixTask, rate: number): Condition['options'] & { hazard_rate: number } => {
  const outages = task.targets.some((target) => target.kind === 'outage');
  return { kinds: outages ? ['outage'] : [], hazard_rate: rate, hazards: { enable: ['all'], rate, kinds: { outage: 'off' } } };
};
export const AGENTS: readonly AgentProfile[] = [ORACLE, NAIVE];
/** The seeds the matrix runs each task on: test-split instances. */
export const MATRIX_SEEDS: readonly number[] = [1, 2, 3];

/** One condition a task runs under, and the session settings that make it. */
export interface Condition {
  name: string;
  options: Pick<RunOptions, 'kinds' | 'hazards' | 'hazard_rate'>;
  /** The agents run under it: oracle and naive where the naive agent must fail (a kind alone) or succeed (none); the oracle elsewhere. */
  agents: readonly AgentProfile[];
}

/** The conditions a task runs under: no hazards, each kind it targets alone, all its targets together, every hazard at each rate. */
function conditionsOf(task: MatrixTask): Condition[] {
  return [
    { name: NONE, options: { kinds: [] }, agents: AGENTS },
    ...[...new Set(task.targets.map((target) => target.kind))].map((kind) => ({ name: kind, options: { kinds: [kind] }, agents: AGENTS })),
    ...(task.targets.length > 1 ? [{ name: DEFAULT, options: {}, agents: [ORACLE] }] : []),
    ...ALL_RATES.map((rate) => ({ name: `all@${rate}`, options: allAt(task, rate), agents: [ORACLE] })),
  ];
}

export interface MatrixRun {
  task: string;
  domain: string;
  seed: number;
  /** `none`, a targeted kind alone, `default`, or `all@<rate>`. */
  condition: string;
  /** oracle and naive in the validity matrix; the model in an eval. */
  agent: string;
  success: boolean;
  blocked?: string;
  /** Why the run could not be completed (the model endpoint failed, the server refused). */
  error?: string;
  score: any;
  journal: any[];
  /** Over OpenEnv: the reward of the episode's last step. */
  reward?: number | null;
}

/** The session id of one cell: fixed, so that a report names its runs. */
export const sessionOf = (task: string, seed: number, condition: string, agent: string, prefix = 'v') =>
  `${prefix}.${task.replace('/', '.')}.${seed}.${condition.replace('@', '-')}.${agent.replace(/[^A-Za-z0-9_.-]/g, '-')}`.slice(0, 64);

export interface MatrixCellRun {
  task: MatrixTask;
  seed: number;
  condition: Condition;
  agent: AgentProfile;
}

/** Every cell of the matrix for the tasks and seeds, in a stable order. */
const cellsOf = (tasks: readonly MatrixTask[], seeds: readonly number[]): MatrixCellRun[] =>
  tasks.flatMap((task) =>
    seeds.flatMap((seed) => conditionsOf(task).flatMap((condition) => condition.agents.map((agent) => ({ task, seed, condition, agent })))),
  );

/** How many runs the matrix of the tasks on the seeds makes (every cell, each agent it plays). */
export const matrixRunCount = (tasks: readonly MatrixTask[], seeds: readonly number[]): number => cellsOf(tasks, seeds).length;

/** Runs the cells with at most `concurrency` runs at once; the results come in the cells' order whatever the concurrency. */
export async function runCells(
  dispatcher: Dispatcher,
  base: string,
  cells: readonly MatrixCellRun[],
  plans: Readonly<Record<string, Plan>>,
  concurrency: number,
  via: RunOptions['via'] = 'http',
  prefix = 'v',
): Promise<MatrixRun[]> {
  const missing = [...new Set(cells.map((cell) => cell.task.id))].filter((id) => !Object.hasOwn(plans, id));
  if (missing.length > 0) throw new Error(`no plan for ${missing.join(', ')}`);
  return mapInOrder(cells, concurrency, async ({ task, seed, condition, agent }): Promise<MatrixRun> => {
    const run: RunResult = await runTask(dispatcher, base, task.id, agent, plans[task.id]!, {
      session: sessionOf(task.id, seed, condition.name, agent.name, prefix),
      seed,
      ...condition.options,
      via,
    });
    return {
      task: task.id,
      domain: task.domain,
      seed,
      condition: condition.name,
      agent: agent.name,
      success: run.score.success === true,
      ...(run.blocked === undefined ? {} : { blocked: run.blocked }),
      score: run.score,
      journal: run.journal,
      ...(run.reward === undefined ? {} : { reward: run.reward }),
    };
  });
}

/** Runs the matrix of the tasks on the seeds; `prefix` starts its session ids. */
export const runMatrix = (
  dispatcher: Dispatcher,
  base: string,
  tasks: readonly MatrixTask[],
  plans: Readonly<Record<string, Plan>>,
  concurrency: number,
  via: RunOptions['via'] = 'http',
  seeds: readonly number[] = MATRIX_SEEDS,
  prefix = 'v',
): Promise<MatrixRun[]> => runCells(dispatcher, base, cellsOf(tasks, seeds), plans, concurrency, via, prefix);

interface Cell {
  domain: string;
  condition: string;
  agent: string;
  runs: number;
  successes: number;
  /** Success in percent. */
  rate: number;
}

interface Drop {
  domain: string;
  kind: string;
  /** The agent's success (the naive agent's in the validity matrix) on the tasks that target the kind: without hazards, and with the kind on. */
  hazardFree: number;
  underKind: number;
  /** Percentage points lost. */
  drop: number;
}

export interface Matrix {
  /** Success by domain, condition and agent, over the runs that could be completed. */
  cells: Cell[];
  /** Runs that could not be completed (the model endpoint failed, the server refused): not the agent's failures, left out of every rate. */
  errors: { task: string; seed: number; condition: string; agent: string; error: string }[];
  /** The oracle's runs that failed (none when every hazard leaves its task solvable). */
  oracleFailures: { task: string; seed: number; condition: string; why: string }[];
  drops: Drop[];
}

const rate = (runs: readonly MatrixRun[]) => (runs.length === 0 ? 0 : Math.round((1000 * runs.filter((run) => run.success).length) / runs.length) / 10);

/** Why a run failed, in one line: the first check that failed. */
export function whyFailed(run: MatrixRun): string {
  const score = run.score;
  if (run.error !== undefined) return `error: ${run.error}`;
  if (run.blocked) return `blocked: ${run.blocked}`;
  if (!score.state.ok)
    return `state: missing ${score.state.missing.length}, unexpected ${score.state.unexpected.length}, different ${JSON.stringify(score.state.different)}`;
  if (!score.answer.ok)
    return score.answer.rule === 'typed'
      ? `answer: ${score.answer.answered ? `differs at ${JSON.stringify(score.answer.differences)}` : 'none submitted'}`
      : `answer: missing ${JSON.stringify(score.answer.missing)}, excluded ${JSON.stringify(score.answer.stated_but_excluded)}`;
  if (score.traps.length > 0) return `traps: ${JSON.stringify(score.traps)}`;
  return 'failed';
}

/** Success by domain, condition and agent; the oracle's failures; the drop per domain and kind of `dropsOf` (the naive agent by default). */
export function summarise(all: readonly MatrixRun[], dropsOf = 'naive'): Matrix {
  const errors = all.flatMap((run) =>
    run.error === undefined ? [] : [{ task: run.task, seed: run.seed, condition: run.condition, agent: run.agent, error: run.error }],
  );
  const runs = all.filter((run) => run.error === undefined);
  const groups = new Map<string, MatrixRun[]>();
  for (const run of runs) {
    for (const domain of [run.domain, 'all']) {
      const key = `${domain}\u0000${run.condition}\u0000${run.agent}`;
      groups.set(key, [...(groups.get(key) ?? []), run]);
    }
  }
  const cells = [...groups].map(([key, group]) => {
    const [domain, condition, agent] = key.split('\u0000') as [string, string, string];
    return { domain, condition, agent, runs: group.length, successes: group.filter((run) => run.success).length, rate: rate(group) };
  });
  const oracleFailures = runs
    .filter((run) => run.agent === 'oracle' && !run.success)
    .map((run) => ({ task: run.task, seed: run.seed, condition: run.condition, why: whyFailed(run) }));
  const drops: Drop[] = [];
  const measured = runs.filter((run) => run.agent === dropsOf);
  const kinds = [...new Set(measured.map((run) => `${run.domain}\u0000${run.condition}`))].filter((key) => !key.endsWith(`\u0000${NONE}`));
  for (const scope of ['domains', 'all'] as const) {
    const keys = scope === 'all' ? [...new Set(kinds.map((key) => `all\u0000${key.split('\u0000')[1]}`))] : kinds;
    for (const key of keys.sort()) {
      const [domain, kind] = key.split('\u0000') as [string, string];
      const inScope = (run: MatrixRun) => domain === 'all' || run.domain === domain;
      // Only tasks measured both ways: one whose hazard-free run could not be completed says nothing of the drop.
      const freeOf = new Set(measured.filter((run) => inScope(run) && run.condition === NONE).map((run) => `${run.task}#${run.seed}`));
      const under = measured.filter((run) => inScope(run) && run.condition === kind && freeOf.has(`${run.task}#${run.seed}`));
      const tasks = new Set(under.map((run) => `${run.task}#${run.seed}`));
      const free = measured.filter((run) => inScope(run) && run.condition === NONE && tasks.has(`${run.task}#${run.seed}`));
      drops.push({ domain, kind, hazardFree: rate(free), underKind: rate(under), drop: Math.round(10 * (rate(free) - rate(under))) / 10 });
    }
  }
  return { cells, errors, oracleFailures, drops };
}

/** A journal as compared across runs: everything but the wall time spent serving each call. */
export const comparableJournal = (journal: readonly any[]) => JSON.stringify(journal.map(({ duration_ms: _wall, ...entry }) => entry));
