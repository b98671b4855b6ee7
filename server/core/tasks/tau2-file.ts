import type { Domain } from '../../../domains/domain.js';
import { Assignment } from '../../../hazards/assignment.js';
import { hazardKinds } from '../../../hazards/kinds/index.js';
import { readBoundedText, UnreadableFileError } from '../../../lib/bounded-file.js';
import { GENERIC_KINDS } from '../../../lib/hazard-profiles.js';
import { withoutOptionalNulls } from '../../../lib/optional-nulls.js';
import { type ExpectedRefusal, tau2IdOf } from '../../../lib/tau2-task.js';
import { convertTau2Tasks, type GoldOutcome, type Tau2Context, type Tau2Conversion } from '../../../scoring/tau2.js';
import type { Target, TaskSpec } from '../../../scoring/task.js';
import { ConfigError, tasksVariable } from '../config.js';
import type { BaseDatabase } from '../data/base.js';
import { DomainState } from '../data/domain-state.js';
import { invalidInput, type Problem, refusalOf, toProblem } from '../problem.js';
import { ClockOptions, SessionClock } from '../sessions/clock.js';
import { referenceTools } from './reference.js';

/** The largest tasks.json read, and the most tasks in it. */
export const MAX_TASK_FILE_BYTES = 64 * 1024 * 1024;
export const MAX_TAU2_TASKS = 10_000;

/** What importing a domain's tau2-bench tasks gave: the file, the tasks loaded, those skipped and why, how they are judged. */
export interface Tau2Import {
  domain: string;
  file: string;
  loaded: number;
  skipped: { id: string; why: string }[];
  /** The natural-language assertions of the loaded tasks: only an LLM judge scores them, so they are not scored. */
  nl_assertions: number;
  /** Per component of tau2-bench's reward basis, how many loaded tasks it decides. */
  reward_basis: Record<string, number>;
  /** Per component wildtools does not score (NL_ASSERTION, ENV_ASSERTION), how many loaded tasks have it in their basis: their runs are judged on the rest. */
  unscored: Record<string, number>;
  /** The gold actions tau2-bench itself refuses on the hazard-free database, by task: expected outcomes, not failures. */
  expected_refusals: (ExpectedRefusal & { id: string })[];
}

/** The scenarios a domain's tools can suffer, as the hazard engine assigns them: declared, or the generic scenario of kinds that strike any tool. */
export function domainScenarios(domain: Domain): Target[] {
  const assignment = new Assignment([domain], new Map(hazardKinds.map((kind) => [kind.kind, kind])));
  return hazardKinds.flatMap((kind) =>
    domain.tools.flatMap((tool) => {
      const scenario = assignment.scenario({ domain: domain.name, tool: tool.name }, kind.kind);
      return scenario ? [{ kind: kind.kind as string, tool: tool.name, recovery: (scenario as { recovery?: string }).recovery ?? kind.recovery }] : [];
    }),
  );
}

/** The entries of a tasks.json: a JSON array of at most MAX_TAU2_TASKS; a ConfigError naming the variable otherwise. */
function readEntries(variable: string, path: string): unknown[] {
  const fail = (what: string) => new ConfigError(`Invalid ${variable}=${JSON.stringify(path)}: ${what}`);
  let text: string;
  try {
    text = readBoundedText(path, MAX_TASK_FILE_BYTES);
  } catch (error) {
    if (error instanceof UnreadableFileError) throw fail(error.message);
    throw error;
  }
  let entries: unknown;
  try {
    entries = JSON.parse(text);
  } catch (error) {
    throw fail(`not JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(entries)) throw fail("expected tau2-bench's tasks.json: a JSON array of tasks");
  if (entries.length > MAX_TAU2_TASKS) throw fail(`${entries.length} tasks, more than ${MAX_TAU2_TASKS}`);
  return entries;
}

/**
 * Replays gold actions in order, hazard-free, on a fresh copy of the domain's database, as a session would
 * run them (optional arguments sent as null taken as absent, the arguments validated, the tool run): each
 * is answered, or refused with the status and code a session would get. A failure that is no refusal (a bug)
 * throws.
 */
export function goldReplay(domain: Domain, base: BaseDatabase): NonNullable<Tau2Context['replay']> {
  return (actions) => {
    const state = new DomainState(base);
    const tools = referenceTools(domain, state, new SessionClock(ClockOptions.parse({})), 'off', []);
    return actions.map(({ name, args }): GoldOutcome => {
      const tool = domain.tools.find((candidate) => candidate.name === name)!;
      const taken = withoutOptionalNulls(tool.input, args) as Record<string, unknown>;
      const refusal = refusalOf(tool.input, taken);
      const problem = refusal ? invalidInput(refusal) : refused(() => tools[name]!(taken));
      return problem ? { ok: false, status: problem.status, code: problem.code ?? '', detail: problem.detail } : { ok: true, args: taken };
    });
  };
}

/** The problem a call is refused with, or undefined when it is answered; anything else than a refusal (a bug) is thrown. */
function refused(call: () => unknown): Problem | undefined {
  try {
    call();
    return undefined;
  } catch (error) {
    const known = toProblem(error);
    if (!known) throw error;
    return known.problem;
  }
}

/**
 * A domain's tasks from a tau2-bench tasks.json, converted, with their gold actions replayed on the domain's
 * database (`base`): an action refused there is an expected refusal, as tau2-bench's evaluator takes it. A
 * task whose expected writes still fail on the database (`check`) is skipped with why.
 */
export function importTau2Tasks(
  domain: Domain,
  path: string,
  base: BaseDatabase,
  check: (task: TaskSpec) => string | undefined,
): { tasks: TaskSpec[]; report: Tau2Import } {
  const variable = tasksVariable(domain.name);
  const entries = readEntries(variable, path);
  const conversion: Tau2Conversion = convertTau2Tasks(entries, {
    domain: domain.name,
    tools: new Set(domain.tools.map((tool) => tool.name)),
    writes: new Set(domain.tools.filter((tool) => tool.mutates).map((tool) => tool.name)),
    scenarios: domainScenarios(domain),
    kinds: GENERIC_KINDS,
    replay: goldReplay(domain, base),
  });
  const skipped = [...conversion.skipped];
  const tasks = conversion.tasks.filter((task) => {
    const why = check(task);
    if (why) skipped.push({ id: tau2IdOf(task.id), why });
    return why === undefined;
  });
  const details = tasks.map((task) => conversion.details.get(task.id)!);
  const count = (components: (detail: (typeof details)[number]) => readonly string[]) => {
    const counts: Record<string, number> = {};
    for (const detail of details) for (const component of components(detail)) counts[component] = (counts[component] ?? 0) + 1;
    return counts;
  };
  return {
    tasks,
    report: {
      domain: domain.name,
      file: path,
      loaded: tasks.length,
      skipped,
      nl_assertions: details.reduce((sum, detail) => sum + detail.nl_assertions, 0),
      reward_basis: count((detail) => detail.reward_basis),
      unscored: count((detail) => detail.unscored),
      expected_refusals: details.flatMap((detail) => detail.refusals.map((refusal) => ({ id: detail.id, ...refusal }))),
    },
  };
}
