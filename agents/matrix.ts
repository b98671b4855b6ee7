import type { Dispatcher } from 'undici';
import type { AgentName, Plan } from './agent.js';
import { mapInOrder } from './pool.js';
import { type RunOptions, type RunResult, runTask } from './run.js';

// The validity matrix: every task × (no hazards, each kind it targets) × (oracle, naive). It proves
// that the measure is valid: the oracle always succeeds (every hazard leaves its task solvable), and
// the naive agent's success falls under every kind (every hazard bites). Its summary takes any agents
// (a model's eval has one): success by domain, condition and agent, and one agent's drop per kind.

export interface MatrixTask {
  id: string;
  domain: string;
  targets: { kind: string; tool: string }[];
}

export const NONE = 'none';
export const AGENTS: readonly AgentName[] = ['oracle', 'naive'];

export interface MatrixRun {
  task: string;
  domain: string;
  /** `none`, or the targeted kind switched on. */
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

/** The conditions a task runs under: no hazards, then each kind it targets alone. */
export const conditionsOf = (task: MatrixTask) => [NONE, ...new Set(task.targets.map((target) => target.kind))];

/** The session id of one cell: fixed, so that two runs of the matrix draw the same hazards. */
export const sessionOf = (task: string, condition: string, agent: AgentName, prefix = 'v') => `${prefix}.${task.replace('/', '.')}.${condition}.${agent}`;

/** Runs the matrix with at most `concurrency` runs at once; the results come in matrix order whatever the concurrency. */
export async function runMatrix(
  dispatcher: Dispatcher,
  base: string,
  tasks: readonly MatrixTask[],
  plans: Readonly<Record<string, Plan>>,
  concurrency: number,
  via: RunOptions['via'] = 'http',
): Promise<MatrixRun[]> {
  const cells = tasks.flatMap((task) => conditionsOf(task).flatMap((condition) => AGENTS.map((agent) => ({ task, condition, agent }))));
  const missing = tasks.filter((task) => !Object.hasOwn(plans, task.id)).map((task) => task.id);
  if (missing.length > 0) throw new Error(`no plan for ${missing.join(', ')}`);
  return mapInOrder(cells, concurrency, async ({ task, condition, agent }): Promise<MatrixRun> => {
    const run: RunResult = await runTask(dispatcher, base, task.id, agent, plans[task.id]!, {
      session: sessionOf(task.id, condition, agent),
      kinds: condition === NONE ? [] : [condition],
      via,
    });
    return {
      task: task.id,
      domain: task.domain,
      condition,
      agent,
      success: run.score.success === true,
      ...(run.blocked === undefined ? {} : { blocked: run.blocked }),
      score: run.score,
      journal: run.journal,
      ...(run.reward === undefined ? {} : { reward: run.reward }),
    };
  });
}

export interface Cell {
  domain: string;
  condition: string;
  agent: string;
  runs: number;
  successes: number;
  /** Success in percent. */
  rate: number;
}

export interface Drop {
  domain: string;
  kind: string;
  /** The agent's success (the naive agent's in the validity matrix) on the tasks that target the kind: without hazards, and with the kind on. */
  hazardFree: number;
  underKind: number;
  /** Percentage points lost. */
  drop: number;
}

export interface Matrix {
  cells: Cell[];
  /** The oracle's runs that failed (none when every hazard leaves its task solvable). */
  oracleFailures: { task: string; condition: string; why: string }[];
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
  if (!score.answer.ok) return `answer: missing ${JSON.stringify(score.answer.missing)}, excluded ${JSON.stringify(score.answer.stated_but_excluded)}`;
  if (score.traps.length > 0) return `traps: ${JSON.stringify(score.traps)}`;
  return 'failed';
}

/** Success by domain, condition and agent; the oracle's failures; the drop per domain and kind of `dropsOf` (the naive agent by default). */
export function summarise(runs: readonly MatrixRun[], dropsOf = 'naive'): Matrix {
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
    .map((run) => ({ task: run.task, condition: run.condition, why: whyFailed(run) }));
  const drops: Drop[] = [];
  const measured = runs.filter((run) => run.agent === dropsOf);
  const kinds = [...new Set(measured.map((run) => `${run.domain}\u0000${run.condition}`))].filter((key) => !key.endsWith(`\u0000${NONE}`));
  for (const scope of ['domains', 'all'] as const) {
    const keys = scope === 'all' ? [...new Set(kinds.map((key) => `all\u0000${key.split('\u0000')[1]}`))] : kinds;
    for (const key of keys.sort()) {
      const [domain, kind] = key.split('\u0000') as [string, string];
      const inScope = (run: MatrixRun) => domain === 'all' || run.domain === domain;
      const under = measured.filter((run) => inScope(run) && run.condition === kind);
      const tasks = new Set(under.map((run) => run.task));
      const free = measured.filter((run) => inScope(run) && run.condition === NONE && tasks.has(run.task));
      drops.push({ domain, kind, hazardFree: rate(free), underKind: rate(under), drop: Math.round(10 * (rate(free) - rate(under))) / 10 });
    }
  }
  return { cells, oracleFailures, drops };
}

/** A journal as compared across runs: everything but the wall time spent serving each call. */
export const comparableJournal = (journal: readonly any[]) => JSON.stringify(journal.map(({ duration_ms: _wall, ...entry }) => entry));
