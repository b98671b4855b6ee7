import { communicateInfo, entryId, goldActions, parseTau2Task, type Tau2Task, tau2TaskId } from '../lib/tau2-task.js';
import type { Target, TaskSpec } from './task.js';

// tau2-bench's tasks as wildtools tasks: the user's reason for calling and what they know as the request,
// the gold actions that write as the expected writes, communicate_info as the facts the answer must state,
// and the domain's scenarios of generic kinds on the tools the gold actions use as the targets.

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
}

export interface Tau2Conversion {
  tasks: TaskSpec[];
  skipped: { id: string; why: string }[];
  /** By converted task id, its tau2-bench natural-language assertions: they need an LLM judge, so are not scored. */
  nl_assertions: Map<string, number>;
}

const ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$/;

/** What the user says first: the reason for the call, then what they know (a plain string as it is). */
export function tau2Request(task: Tau2Task): string {
  const instructions = task.user_scenario.instructions;
  if (typeof instructions === 'string') return instructions.trim();
  const parts = [instructions.reason_for_call, instructions.known_info].map((part) => part?.trim() ?? '').filter(Boolean);
  return parts.length > 0 ? parts.join('\n\n') : (instructions.task_instructions?.trim() ?? '');
}

/** Why a task cannot run as a wildtools task, or undefined. */
function unusable(task: Tau2Task, context: Tau2Context): string | undefined {
  if (!ID.test(`tau2-${task.id}`)) return `its id ${JSON.stringify(task.id)} is not 1 to 35 letters, digits, "_", "." or "-"`;
  if (task.initial_state !== undefined && task.initial_state !== null)
    return 'initial_state is set (a starting state other than the database is not supported)';
  const actions = task.evaluation_criteria?.actions;
  if (!actions) return 'no evaluation_criteria.actions';
  const unknown = actions.find((action) => !context.tools.has(action.name));
  if (unknown) return `gold action ${unknown.name} is not a tool of ${context.domain}`;
  if (tau2Request(task) === '') return 'no instructions for the user';
  return undefined;
}

function convert(task: Tau2Task, context: Tau2Context): TaskSpec {
  const actions = goldActions(task);
  const kinds = new Set(context.kinds);
  const tools = [...new Set(actions.map((action) => action.name))];
  const targets = tools.flatMap((tool) =>
    context.scenarios.filter((scenario) => scenario.tool === tool && kinds.has(scenario.kind)).map(({ kind, recovery }) => ({ kind, tool, recovery })),
  );
  return {
    id: tau2TaskId(context.domain, task.id),
    title: `tau2-bench ${context.domain} task ${task.id}`,
    categories: [actions.length > 1 ? 'multi-step' : 'single-step'],
    request: tau2Request(task),
    setup: {},
    targets,
    expect: {
      writes: actions.filter((action) => context.writes.has(action.name)).map((action) => ({ tool: action.name, args: action.arguments ?? {} })),
      answer: { contains: communicateInfo(task), excludes: [] },
      claims: [],
    },
    forbidden: [],
  };
}

/** A tau2-bench tasks.json's entries as wildtools tasks, and those that cannot be, each with why. */
export function convertTau2Tasks(entries: readonly unknown[], context: Tau2Context): Tau2Conversion {
  const result: Tau2Conversion = { tasks: [], skipped: [], nl_assertions: new Map() };
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
    const converted = convert(task, context);
    result.tasks.push(converted);
    result.nl_assertions.set(converted.id, task.evaluation_criteria?.nl_assertions?.length ?? 0);
  });
  return result;
}
