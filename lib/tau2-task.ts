import { z } from 'zod';
import { isObject } from './object.js';

// The task format of tau2-bench (`data/tau2/domains/<domain>/tasks.json`: a JSON array), as far as
// wildtools reads it (tau2-bench's src/tau2/data_model/tasks.py). Argument objects are kept as they are
// (own keys, `__proto__` an ordinary one).

/** A JSON object taken as it is, not rebuilt (a rebuilt object would lose an own `__proto__` key). */
const Arguments = z.custom<Record<string, unknown>>(isObject, 'an object');

export const Tau2Action = z.object({
  action_id: z.string().optional(),
  /** Who makes the call: the agent (`assistant`, the default) or the user (a user tool). */
  requestor: z.enum(['assistant', 'user']).optional(),
  name: z.string().min(1),
  arguments: Arguments.optional(),
  /** The arguments ACTION compares (null: every argument the call sends; []: the name only). */
  compare_args: z.array(z.string()).nullish(),
});
export type Tau2Action = z.infer<typeof Tau2Action>;

const text = z.string().nullish();

const Tau2Instructions = z.union([
  z.string(),
  z.object({ task_instructions: text, domain: text, reason_for_call: text, known_info: text, unknown_info: text }),
]);

/** What gates a task's reward (tau2-bench's RewardType): the product of the components listed. */
const REWARD_TYPES = ['DB', 'ENV_ASSERTION', 'NL_ASSERTION', 'ACTION', 'COMMUNICATE'] as const;
export type RewardType = (typeof REWARD_TYPES)[number];

/** tau2-bench's default reward basis (EvaluationCriteria.reward_basis), the same for every domain: the original τ-bench's. */
const DEFAULT_REWARD_BASIS: readonly RewardType[] = ['DB', 'COMMUNICATE'];

/** Components wildtools cannot score deterministically: an LLM judge's (NL_ASSERTION), tau2-bench's own Python assertions (ENV_ASSERTION). */
export const UNSCORED_REWARD_TYPES: readonly RewardType[] = ['NL_ASSERTION', 'ENV_ASSERTION'];

export const Tau2Task = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  user_scenario: z.object({ persona: text, instructions: Tau2Instructions }),
  initial_state: z.unknown().optional(),
  evaluation_criteria: z
    .object({
      actions: z.array(Tau2Action).nullish(),
      env_assertions: z.array(z.unknown()).nullish(),
      communicate_info: z.array(z.union([z.string(), z.number()])).nullish(),
      nl_assertions: z.array(z.string()).nullish(),
      reward_basis: z.array(z.enum(REWARD_TYPES)).optional(),
    })
    .nullish(),
});
export type Tau2Task = z.infer<typeof Tau2Task>;

/** The gold actions of a task (none when it has no evaluation criteria). */
export const goldActions = (task: Tau2Task): Tau2Action[] => task.evaluation_criteria?.actions ?? [];

/** The facts the agent must tell the user, as strings. */
export const communicateInfo = (task: Tau2Task): string[] =>
  (task.evaluation_criteria?.communicate_info ?? []).map(String).filter((fact) => fact.trim() !== '');

/** What gates the task's reward: its own reward_basis, else tau2-bench's default. */
export const rewardBasis = (task: Tau2Task): readonly RewardType[] => task.evaluation_criteria?.reward_basis ?? DEFAULT_REWARD_BASIS;

/**
 * Why a task's initial_state changes the starting point, or undefined when tau2-bench applies nothing
 * (Environment.set_state: no initialization data, no initialization actions, no message history).
 */
export function initialStateSet(task: Tau2Task): string | undefined {
  const state = task.initial_state;
  if (state === undefined || state === null) return undefined;
  if (!isObject(state)) return 'initial_state is not an object';
  const empty = (value: unknown) =>
    value === undefined || value === null || (Array.isArray(value) && value.length === 0) || (isObject(value) && Object.keys(value).length === 0);
  const { initialization_data: data, initialization_actions: actions, message_history: history, ...rest } = state as Record<string, unknown>;
  const set: string[] = [];
  if (data !== undefined && data !== null) {
    if (!isObject(data)) set.push('initialization_data');
    else {
      const { agent_data, user_data, ...other } = data as Record<string, unknown>;
      if (!empty(agent_data) || !empty(user_data) || Object.keys(other).length > 0) set.push('initialization_data');
    }
  }
  if (!empty(actions)) set.push('initialization_actions');
  if (!empty(history)) set.push('message_history');
  set.push(...Object.keys(rest).filter((key) => !empty(rest[key])));
  return set.length === 0 ? undefined : `initial_state sets ${set.join(', ')} (a starting state other than the database is not supported)`;
}

/** A parsed task, or why the entry is not one. */
export function parseTau2Task(entry: unknown): { task: Tau2Task } | { error: string } {
  const parsed = Tau2Task.safeParse(entry);
  if (parsed.success) return { task: parsed.data };
  const issue = parsed.error.issues[0]!;
  return { error: `not a tau2-bench task: ${issue.path.join('.') || 'the entry'}: ${issue.message}` };
}

/** The identifier of an entry as well as it can be read (its id, or its position). */
export const entryId = (entry: unknown, index: number): string => {
  const id = typeof entry === 'object' && entry !== null && Object.hasOwn(entry, 'id') ? (entry as { id: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : `#${index}`;
};

/** The task id a tau2-bench id becomes in wildtools: `<domain>/tau2-<id>`. */
export const tau2TaskId = (domain: string, id: string) => `${domain}/tau2-${id}`;

/** The tau2-bench id a converted task came from. */
export const tau2IdOf = (taskId: string) => taskId.slice(taskId.indexOf('/tau2-') + '/tau2-'.length);

/** A gold action tau2-bench itself refuses on the hazard-free database: an expected outcome of the task, not a failure. */
export interface ExpectedRefusal {
  /** The action's position in the gold actions (from 0). */
  action: number;
  action_id?: string;
  tool: string;
  /** What wildtools answers it, hazard-free: the status and the problem's code. */
  status: number;
  code: string;
  detail: string;
}
