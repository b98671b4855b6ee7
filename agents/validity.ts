import type { Dispatcher } from 'undici';
import type { Plan } from './agent.js';
import { exchange } from './http.js';
import { comparableJournal, MATRIX_SEEDS, type MatrixRun, type MatrixTask, runMatrix, summarise, whyFailed } from './matrix.js';
import type { Report } from './report.js';

/**
 * A task pattern as a regular expression over whole ids: `*` any run of characters, `?` one, `[12]`, `[1-3]` and
 * `[!1]` one of (or none of) a set, as shells glob; anything else literal. A malformed pattern throws, saying why.
 */
export function taskPattern(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '*') source += '.*';
    else if (char === '?') source += '.';
    else if (char === '[') {
      const negated = pattern[i + 1] === '!' || pattern[i + 1] === '^';
      const first = i + 1 + (negated ? 1 : 0);
      // A "]" right after the opening bracket is a member of the set, as in shells.
      const end = pattern.indexOf(']', first + 1);
      if (end === -1) throw new Error(`task pattern ${JSON.stringify(pattern)}: "[" at ${i + 1} has no closing "]"`);
      const members = pattern.slice(first, end).replace(/[\\\]^[]/g, '\\$&');
      source += `[${negated ? '^' : ''}${members}]`;
      i = end;
    } else source += char.replace(/[.+^${}()|\]\\]/g, '\\$&');
  }
  try {
    return new RegExp(`^${source}$`);
  } catch {
    throw new Error(`task pattern ${JSON.stringify(pattern)}: a set in brackets is malformed (a range such as [3-1] runs backwards)`);
  }
}

/** Task ids matching any of the patterns (`retail/*`, `airline/00?`, `retail/00[12]`, an exact id); every task without one. */
export function selectTasks<T extends { id: string }>(tasks: readonly T[], patterns: readonly string[]): T[] {
  if (patterns.length === 0) return [...tasks];
  const regexes = patterns.map(taskPattern);
  return tasks.filter((task) => regexes.some((regex) => regex.test(task.id)));
}

export async function listTasks(dispatcher: Dispatcher, base: string): Promise<MatrixTask[]> {
  const reply = await exchange(dispatcher, base, 'GET', '/tasks');
  if (reply.status !== 200) throw new Error(`GET /tasks answered ${reply.status}`);
  return reply.body as MatrixTask[];
}

/** An OpenEnv episode whose last step carried a reward: it is the score's verdict (1 success, 0 failure). */
const rewardAgrees = (run: MatrixRun) => run.reward === undefined || run.reward === null || run.reward === (run.success ? 1 : 0);

const runSummary = (run: MatrixRun) => ({
  task: run.task,
  seed: run.seed,
  condition: run.condition,
  agent: run.agent,
  success: run.success,
  ...(run.success ? {} : { why: whyFailed(run) }),
  calls: run.score.calls as number,
  retries: run.score.retries as number,
});

/**
 * The validity matrix of the selected tasks, run twice with the same seeds — one run at a time, then
 * `concurrency` at once in sessions of other ids — with the journals of both compared (wall times aside).
 */
export async function validity(
  dispatcher: Dispatcher,
  base: string,
  plans: Readonly<Record<string, Plan>>,
  options: {
    patterns?: readonly string[];
    concurrency?: number;
    twice?: boolean;
    /** How the second pass reaches the tools (default HTTP); its journals must still equal the first pass's. */
    againVia?: 'http' | 'openenv';
    /** The instances each task runs on (default MATRIX_SEEDS). */
    seeds?: readonly number[];
    /** The instances the second pass runs on (default: the first pass's). */
    againSeeds?: readonly number[];
    /** Runs at once in the first pass (default 1). */
    firstConcurrency?: number;
  } = {},
): Promise<{ report: Report; runs: MatrixRun[]; again: MatrixRun[] }> {
  const tasks = selectTasks(await listTasks(dispatcher, base), options.patterns ?? []);
  const seeds = options.seeds ?? MATRIX_SEEDS;
  const runs = await runMatrix(dispatcher, base, tasks, plans, options.firstConcurrency ?? 1, 'http', seeds);
  let determinism: Report['determinism'];
  let again: MatrixRun[] = [];
  if (options.twice !== false) {
    const concurrency = options.concurrency ?? 8;
    const via = options.againVia ?? 'http';
    // Other session ids: the same task and seed must meet the same faults whatever the session is called.
    const againSeeds = options.againSeeds ?? seeds;
    again = await runMatrix(dispatcher, base, tasks, plans, concurrency, via, againSeeds, 'w');
    const first = new Map(runs.map((run) => [`${run.task}#${run.seed} ${run.condition} ${run.agent}`, run]));
    const differing = again
      .filter((other) => {
        const run = first.get(`${other.task}#${other.seed} ${other.condition} ${other.agent}`);
        if (!run) return true;
        return comparableJournal(run.journal) !== comparableJournal(other.journal) || run.success !== other.success || !rewardAgrees(other);
      })
      .map((run) => `${run.task}#${run.seed} ${run.condition} ${run.agent}`);
    determinism = { identical: differing.length === 0, runs: again.length, differing, concurrency, via };
  }
  const count: Record<string, number> = {};
  for (const task of tasks) count[task.domain] = (count[task.domain] ?? 0) + 1;
  const report: Report = {
    title: 'wildtools validity matrix',
    tasks: count,
    matrix: summarise(runs),
    ...(determinism ? { determinism } : {}),
    runs: runs.map(runSummary),
  };
  return { report, runs, again };
}
