import type { Dispatcher } from 'undici';
import type { Plan } from './agent.js';
import { exchange } from './http.js';
import { comparableJournal, type MatrixRun, type MatrixTask, runMatrix, summarise, whyFailed } from './matrix.js';
import type { Report } from './report.js';

/** Task ids matching any of the patterns (`retail/*`, `airline/00?`, an exact id); every task without one. */
export function selectTasks<T extends { id: string }>(tasks: readonly T[], patterns: readonly string[]): T[] {
  if (patterns.length === 0) return [...tasks];
  const regexes = patterns.map(
    (pattern) =>
      new RegExp(
        `^${pattern
          .replace(/[.+^${}()|[\]\\]/g, '\\$&')
          .replaceAll('*', '.*')
          .replaceAll('?', '.')}$`,
      ),
  );
  return tasks.filter((task) => regexes.some((regex) => regex.test(task.id)));
}

export async function listTasks(dispatcher: Dispatcher, base: string): Promise<MatrixTask[]> {
  const reply = await exchange(dispatcher, base, 'GET', '/tasks');
  if (reply.status !== 200) throw new Error(`GET /tasks answered ${reply.status}`);
  return reply.body as MatrixTask[];
}

export const runSummary = (run: MatrixRun) => ({
  task: run.task,
  condition: run.condition,
  agent: run.agent,
  success: run.success,
  ...(run.success ? {} : { why: whyFailed(run) }),
  calls: run.score.calls as number,
  retries: run.score.retries as number,
});

/**
 * The validity matrix of the selected tasks, run twice with the same seeds — one run at a time, then
 * `concurrency` at once — with the journals of both compared (wall times aside).
 */
export async function validity(
  dispatcher: Dispatcher,
  base: string,
  plans: Readonly<Record<string, Plan>>,
  options: { patterns?: readonly string[]; concurrency?: number; twice?: boolean } = {},
): Promise<{ report: Report; runs: MatrixRun[] }> {
  const tasks = selectTasks(await listTasks(dispatcher, base), options.patterns ?? []);
  const runs = await runMatrix(dispatcher, base, tasks, plans, 1);
  let determinism: Report['determinism'];
  if (options.twice !== false) {
    const again = await runMatrix(dispatcher, base, tasks, plans, options.concurrency ?? 8);
    const differing = runs
      .filter((run, i) => comparableJournal(run.journal) !== comparableJournal(again[i]!.journal))
      .map((run) => `${run.task} ${run.condition} ${run.agent}`);
    determinism = { identical: differing.length === 0, runs: runs.length, differing };
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
  return { report, runs };
}
