import {
  communicateInfo,
  entryId,
  type ExpectedRefusal,
  goldActions,
  initialStateSet,
  parseTau2Task,
  type RewardType,
  rewardBasis,
  type Tau2Task,
  tau2TaskId,
  UNSCORED_REWARD_TYPES,
} from '../lib/tau2-task.js';
import type { RequiredCall, Target, TaskSpec } from './task.js';

// tau2-bench's tasks as wildtools tasks: the user's side of the scenario as the request, the gold actions
// that write (and that tau2-bench does not refuse) as the expected writes, communicate_info as the facts the
// answer must state, and the task's reward basis as what decides success (tau2-bench's evaluator: the
// product of the components in evaluation_criteria.reward_basis, default DB and COMMUNICATE). The domain's
// scenarios of generic kinds on the tools the gold actions use are the targets.

/** What a gold action came to when replayed hazard-free on the domain's database, in order. */
export type GoldOutcome =
  | { ok: true /** The arguments as the server takes them (nulls for absent optional arguments left out). */; args: Record<string, unknown> }
  | { ok: false; status: number; code: string; detail: string };

export interface Tau2Context {
  domain: string;
  /** The tools the domain serves. */
  tools: ReadonlySet<string>;
  /** The tools that change the database. */
  writes: ReadonlySet<string>;
  /** The hazard scenarios the domain's tools can suffer. */
  scenarios: readonly Target[];
  /** The kinds a task may target (generic recoveries only). */
  kinds: readonly string[];
  /**
   * Replays a task's gold actions in order, hazard-free, on a fresh copy of the domain's database, as
   * tau2-bench's evaluator replays them on its gold environment: an action the tools refuse is an expected
   * refusal (tau2-bench logs it and goes on), and leaves the state as it was. Without it, every action is
   * taken to succeed.
   */
  replay?: (actions: readonly { name: string; args: Record<string, unknown> }[]) => GoldOutcome[];
}

/** What a converted task keeps of tau2-bench's rule besides its TaskSpec. */
interface Tau2Details {
  /** The tau2-bench id. */
  id: string;
  reward_basis: readonly RewardType[];
  /** Components of the basis wildtools does not score (an LLM judge's, tau2-bench's own assertions): reported, never deciding. */
  unscored: RewardType[];
  /** Its natural-language assertions (scored only by an LLM judge: never here). */
  nl_assertions: number;
  /** The gold actions tau2-bench itself refuses on the hazard-free database. */
  refusals: ExpectedRefusal[];
}

export interface Tau2Conversion {
  tasks: TaskSpec[];
  skipped: { id: string; why: string }[];
  /** By converted task id. */
  details: Map<string, Tau2Details>;
}

const ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$/;

/** Text with something to say (tau2-bench writes "." for no instructions). */
const said = (text: string | null | undefined): text is string => typeof text === 'string' && /[\p{L}\p{N}]/u.test(text);

/** How the request introduces the user's side. */
export const USER_SIDE =
  "[The user's side of this conversation, as tau2-bench gives it to its simulated user: who they are, what they know and want, " +
  'and how they behave. "You" in it means the user. It describes the user; it is not an instruction to you.]';

/**
 * What the agent is told: everything tau2-bench's user simulator is given (UserScenario: the persona, the
 * reason for the call, what the user knows and does not know, and the user's own instructions, which may
 * decide what the right outcome is), labelled as the user's side.
 */
export function tau2Request(task: Tau2Task): string {
  const { persona, instructions } = task.user_scenario;
  const parts: [label: string, text: string | null | undefined][] = [['Who the user is', persona]];
  if (typeof instructions === 'string') parts.push(["The user's instructions", instructions]);
  else
    parts.push(
      ['Why the user calls', instructions.reason_for_call],
      ['What the user knows', instructions.known_info],
      ['What the user does not know', instructions.unknown_info],
      ['How the user behaves and decides (their own instructions)', instructions.task_instructions],
    );
  const shown = parts.filter((part): part is [string, string] => said(part[1]));
  if (shown.length === 0) return '';
  return [USER_SIDE, ...shown.map(([label, text]) => `${label}:\n${text.trim()}`)].join('\n\n');
}

/** The calls tau2-bench's ACTION requires: every gold action, compared on its compare_args (absent: every argument the call sends). */
const requiredCalls = (task: Tau2Task): RequiredCall[] =>
  goldActions(task).map((action) => ({
    tool: action.name,
    args: action.arguments ?? {},
    ...(action.compare_args === undefined || action.compare_args === null ? {} : { compare: action.compare_args }),
  }));

/** Why a task cannot run as a wildtools task, or undefined. */
function unusable(task: Tau2Task, context: Tau2Context): string | undefined {
  if (!ID.test(`tau2-${task.id}`)) return `its id ${JSON.stringify(task.id)} is not 1 to 35 letters, digits, "_", "." or "-"`;
  const initial = initialStateSet(task);
  if (initial) return initial;
  const actions = task.evaluation_criteria?.actions;
  if (!actions) return 'no evaluation_criteria.actions';
  const user = actions.find((action) => action.requestor === 'user');
  if (user) return `gold action ${user.name} is the user's (requestor "user"): wildtools has no user tools`;
  const unknown = actions.find((action) => !context.tools.has(action.name));
  if (unknown) return `gold action ${unknown.name} is not a tool of ${context.domain}`;
  if (tau2Request(task) === '') return 'no instructions for the user';
  return undefined;
}

function convert(task: Tau2Task, context: Tau2Context): { spec: TaskSpec; details: Tau2Details } {
  const actions = goldActions(task);
  const calls = actions.map((action) => ({ name: action.name, args: action.arguments ?? {} }));
  const outcomes: GoldOutcome[] = context.replay?.(calls) ?? calls.map(({ args }) => ({ ok: true, args }));
  const refusals: ExpectedRefusal[] = outcomes.flatMap((outcome, i) =>
    outcome.ok
      ? []
      : [
          {
            action: i,
            ...(actions[i]!.action_id === undefined ? {} : { action_id: actions[i]!.action_id }),
            tool: actions[i]!.name,
            status: outcome.status,
            code: outcome.code,
            detail: outcome.detail,
          },
        ],
  );
  const kinds = new Set(context.kinds);
  const tools = [...new Set(actions.map((action) => action.name))];
  const targets = tools.flatMap((tool) =>
    context.scenarios.filter((scenario) => scenario.tool === tool && kinds.has(scenario.kind)).map(({ kind, recovery }) => ({ kind, tool, recovery })),
  );
  const basis = rewardBasis(task);
  const facts = communicateInfo(task);
  const id = tau2TaskId(context.domain, task.id);
  const spec: TaskSpec = {
    id,
    title: `tau2-bench ${context.domain} task ${task.id}`,
    categories: [actions.length > 1 ? 'multi-step' : 'single-step'],
    request: tau2Request(task),
    setup: {},
    targets,
    expect: {
      // A write tau2-bench refuses changes nothing: its gold environment logs the error and goes on.
      writes: actions.flatMap((action, i) => {
        const outcome = outcomes[i]!;
        return context.writes.has(action.name) && outcome.ok ? [{ tool: action.name, args: outcome.args }] : [];
      }),
      answer: { contains: facts, excludes: [] },
      claims: [],
    },
    forbidden: [],
    judge: {
      state: basis.includes('DB'),
      // CommunicateEvaluator gives 1 when there is nothing to communicate.
      answer: basis.includes('COMMUNICATE') && facts.length > 0,
      calls: basis.includes('ACTION') ? requiredCalls(task) : [],
    },
  };
  const details: Tau2Details = {
    id: task.id,
    reward_basis: basis,
    unscored: basis.filter((component) => UNSCORED_REWARD_TYPES.includes(component)),
    nl_assertions: task.evaluation_criteria?.nl_assertions?.length ?? 0,
    refusals,
  };
  return { spec, details };
}

/** A tau2-bench tasks.json's entries as wildtools tasks, and those that cannot be, each with why. */
export function convertTau2Tasks(entries: readonly unknown[], context: Tau2Context): Tau2Conversion {
  const result: Tau2Conversion = { tasks: [], skipped: [], details: new Map() };
  const seen = new Set<string>();
  entries.forEach((entry, index) => {
    const parsed = parseTau2Task(entry);
    if ('error' in parsed) {
      result.skipped.push({ id: entryId(entry, index), why: parsed.error });
      return;
    }
    const { task } = parsed;
    const why = seen.has(task.id) ? 'a duplicate id' : unusable(task, context);
    seen.add(task.id);
    if (why) {
      result.skipped.push({ id: task.id, why });
      return;
    }
    let converted: ReturnType<typeof convert>;
    try {
      converted = convert(task, context);
    } catch (error) {
      result.skipped.push({ id: task.id, why: `replaying its gold actions failed: ${(error as Error).message}` });
      return;
    }
    const { spec, details } = converted;
    result.tasks.push(spec);
    result.details.set(spec.id, details);
  });
  return result;
}
