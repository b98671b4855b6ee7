import type { Dispatcher } from 'undici';
import { type ExpectedRefusal, parseTau2Task, type RewardType, rewardBasis, tau2TaskId } from '../../lib/tau2-task.js';
import { type AgentProfile, NAIVE, ORACLE } from '../agent.js';
import { runModel, taskDetails } from '../eval.js';
import type { ModelOptions } from '../eval-chat.js';
import { exchange } from '../http.js';
import { AGENTS, type MatrixRun, type MatrixTask, NONE } from '../matrix.js';
import { runTask } from '../run.js';
import { mapInOrder } from '../pool.js';
import { listTasks, selectTasks } from '../validity.js';
import { type Tau2Gold, tau2Plan } from './plan.js';

// tau2-bench's tasks, served by a wildtools whose TASKS_<DOMAIN> names their tasks.json: the scripted
// oracle and naive agent (and a model, when given) on each task, clean and under a hazard profile, k times.

export interface Tau2RunOptions {
  domains: readonly string[];
  /** The condition's label in the report (the profile's name). */
  profile: string;
  /** The kinds of the profile. */
  kinds: readonly string[];
  /** The first seed: repetition r runs on seed + r, so that each repetition meets its own faults and every agent the same ones. */
  seed: number;
  rate: number;
  k: number;
  patterns?: readonly string[];
  model?: ModelOptions;
  maxSteps?: number;
  /** Runs at once (default 4); the results come in a fixed order whatever the concurrency. */
  concurrency?: number;
}

/** One run: a matrix cell (condition `none` or the profile) and its repetition. */
export interface Tau2Run extends MatrixRun {
  repetition: number;
  /** What decides the task's success: tau2-bench's reward basis (NL_ASSERTION and ENV_ASSERTION are not scored). */
  reward_basis: RewardType[];
  /** With ACTION in the basis: the gold actions no call of the run matched. */
  missing_calls?: string[];
}

/** A session id made of letters, digits, `.`, `_` and `-`, at most 64 characters. */
const tau2Session = (task: string, condition: string, agent: string, repetition: number) =>
  `t2.${task.replace('/', '.')}.${condition}.${agent}.${repetition}`.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 64);

/**
 * The tasks of a tasks.json by the id the server gives them, `<domain>/tau2-<id>`, each with the gold actions
 * tau2-bench itself refuses (the server's import report: `expected_refusals`).
 */
export function goldOf(
  domain: string,
  entries: readonly unknown[],
  refusals: readonly Pick<ExpectedRefusal & { id: string }, 'id' | 'action' | 'status' | 'code'>[] = [],
): Map<string, Tau2Gold> {
  const gold = new Map<string, Tau2Gold>();
  for (const entry of entries) {
    const parsed = parseTau2Task(entry);
    if (!('task' in parsed)) continue;
    const id = tau2TaskId(domain, parsed.task.id);
    if (gold.has(id)) continue;
    const refused = new Map(refusals.filter((refusal) => refusal.id === parsed.task.id).map(({ action, status, code }) => [action, { status, code }]));
    gold.set(id, { task: parsed.task, refused });
  }
  return gold;
}

async function writesOf(dispatcher: Dispatcher, base: string, domain: string): Promise<Set<string>> {
  const reply = await exchange(dispatcher, base, 'GET', `/${domain}/tools`);
  if (reply.status !== 200) throw new Error(`GET /${domain}/tools answered ${reply.status}`);
  return new Set((reply.body as { tools: { name: string; mutates: boolean }[] }).tools.filter((tool) => tool.mutates).map((tool) => tool.name));
}

interface Cell {
  task: MatrixTask;
  condition: string;
  agent: string;
  repetition: number;
}

/** Every run, in task, condition, agent and repetition order. */
export async function runTau2(
  dispatcher: Dispatcher,
  base: string,
  gold: ReadonlyMap<string, Tau2Gold>,
  options: Tau2RunOptions,
): Promise<{ tasks: MatrixTask[]; runs: Tau2Run[] }> {
  const tasks = selectTasks(
    (await listTasks(dispatcher, base)).filter((task) => options.domains.includes(task.domain) && gold.has(task.id)),
    options.patterns ?? [],
  );
  const writes = new Map<string, Set<string>>();
  for (const domain of new Set(tasks.map((task) => task.domain))) writes.set(domain, await writesOf(dispatcher, base, domain));
  const agents: string[] = [...AGENTS.map((agent) => agent.name), ...(options.model ? [options.model.model] : [])];
  const profiles = new Map<string, AgentProfile>([ORACLE, NAIVE].map((profile) => [profile.name, profile]));
  const cells: Cell[] = tasks.flatMap((task) =>
    [NONE, options.profile].flatMap((condition) =>
      agents.flatMap((agent) => Array.from({ length: options.k }, (_, repetition) => ({ task, condition, agent, repetition }))),
    ),
  );
  const detailsOf = taskDetails(dispatcher, base);
  const run = async (cell: Cell): Promise<Tau2Run> => {
    const made = await play(cell);
    const { task } = gold.get(cell.task.id)!;
    const basis = [...rewardBasis(task)];
    // The server's score says which required calls (ACTION) the run did not make.
    const missing = basis.includes('ACTION') && made.error === undefined ? ((made.score?.missing_calls as string[] | undefined) ?? []) : undefined;
    return { ...made, reward_basis: basis, ...(missing === undefined ? {} : { missing_calls: missing }) };
  };
  const play = async ({ task, condition, agent, repetition }: Cell): Promise<Omit<Tau2Run, 'reward_basis'>> => {
    const targeted = new Set(task.targets.map((target) => target.kind));
    const seed = options.seed + repetition;
    const setup = {
      session: tau2Session(task.id, condition, agent, repetition),
      kinds: condition === NONE ? [] : options.kinds.filter((kind) => targeted.has(kind)),
      seed,
      hazard_rate: options.rate,
    };
    const cell = { task: task.id, domain: task.domain, seed, condition, agent, repetition };
    const profile = profiles.get(agent);
    if (!profile) {
      const result = await runModel(dispatcher, base, await detailsOf(task.id, seed), condition, options.model!, { maxSteps: options.maxSteps ?? 30 }, setup);
      return { ...cell, success: result.success, ...(result.error === undefined ? {} : { error: result.error }), score: result.score, journal: result.journal };
    }
    try {
      const result = await runTask(dispatcher, base, task.id, profile, tau2Plan(gold.get(task.id)!, writes.get(task.domain)!), setup);
      return {
        ...cell,
        success: result.score.success === true,
        ...(result.blocked === undefined ? {} : { blocked: result.blocked }),
        score: result.score,
        journal: result.journal,
      };
    } catch (error) {
      return { ...cell, success: false, error: (error as Error).message, score: null, journal: [] };
    }
  };
  const runs = await mapInOrder(cells, options.concurrency ?? 4, run);
  return { tasks, runs };
}
