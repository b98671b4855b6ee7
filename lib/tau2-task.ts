import { z } from 'zod';

// The task format of tau2-bench (`data/tau2/domains/<domain>/tasks.json`: a JSON array), as far as
// wildtools reads it. Argument objects are kept as they are (own keys, `__proto__` an ordinary one).

/** A JSON object taken as it is, not rebuilt (a rebuilt object would lose an own `__proto__` key). */
const Arguments = z.custom<Record<string, unknown>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), 'an object');

export const Tau2Action = z.object({
  action_id: z.string().optional(),
  name: z.string().min(1),
  arguments: Arguments.optional(),
});
export type Tau2Action = z.infer<typeof Tau2Action>;

const text = z.string().nullish();

export const Tau2Instructions = z.union([
  z.string(),
  z.object({ task_instructions: text, domain: text, reason_for_call: text, known_info: text, unknown_info: text }),
]);

export const Tau2Task = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  user_scenario: z.object({ persona: z.unknown().optional(), instructions: Tau2Instructions }),
  initial_state: z.unknown().optional(),
  evaluation_criteria: z
    .object({
      actions: z.array(Tau2Action).nullish(),
      communicate_info: z.array(z.union([z.string(), z.number()])).nullish(),
      nl_assertions: z.array(z.string()).nullish(),
    })
    .nullish(),
});
export type Tau2Task = z.infer<typeof Tau2Task>;

/** The gold actions of a task (none when it has no evaluation criteria). */
export const goldActions = (task: Tau2Task): Tau2Action[] => task.evaluation_criteria?.actions ?? [];

/** The facts the agent must tell the user, as strings. */
export const communicateInfo = (task: Tau2Task): string[] =>
  (task.evaluation_criteria?.communicate_info ?? []).map(String).filter((fact) => fact.trim() !== '');

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
