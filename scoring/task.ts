import { z } from 'zod';
import type { AnswerRule } from '../lib/answer-fields.js';
import { TASK_CATEGORIES, type TaskForbidden, type TaskTarget } from '../lib/task-terms.js';

// A task as data: what the agent is asked, how its session is set up, and how its run is judged.
// The expected outcome never leaves the server (see `publicTask`).

const ToolName = z.string().regex(/^[a-z][a-z0-9_]*$/, 'a tool name');
const Args = z.record(z.string(), z.unknown());

/** A word, a phrase or a number the final answer must state (or must not). Numbers match by value: 100 == 100.0 == $100.00. */
export const Fact = z.union([z.string().min(1), z.number()]);
export type Fact = z.infer<typeof Fact>;

export const TaskCategory = z.enum(TASK_CATEGORIES);
export type TaskCategory = z.infer<typeof TaskCategory>;

export const Target = z.strictObject({
  kind: z.string().describe('A hazard kind the domain declares on `tool`.'),
  tool: ToolName,
  recovery: z.string().min(1).describe('What the task expects an agent to do when the hazard hits.'),
  via: z.array(ToolName).optional().describe('Tools whose clean answer after a blocking hit shows the recovery (default: the hazarded tool itself).'),
});
export type Target = z.infer<typeof Target>;

const Forbidden = z.strictObject({
  tool: ToolName,
  args: Args.optional().describe('The call is forbidden when its arguments include these (all of them); any call of the tool otherwise.'),
  why: z.string().min(1),
});

const AnswerFacts = z.strictObject({
  contains: z.array(Fact).default([]).describe('Facts the final answer must state.'),
  excludes: z.array(Fact).default([]).describe('Facts the final answer must not state (a false claim, a promoted item, an injected instruction).'),
});

/** A call a run must make (tau2-bench's ACTION): the tool, and the arguments compared (`compare`; absent: every argument the call sends). */
export const RequiredCall = z.strictObject({
  tool: ToolName,
  args: Args,
  compare: z.array(z.string()).optional().describe('The arguments compared ([]: the tool alone); absent: every argument the call sends.'),
});
export type RequiredCall = z.infer<typeof RequiredCall>;

/** What decides a task's success besides the traps (a task given as data: tau2-bench's reward basis). */
const Judge = z.strictObject({
  state: z.boolean().describe('The end state decides (tau2-bench: DB in the reward basis).'),
  answer: z.boolean().describe('The answer decides (tau2-bench: COMMUNICATE in the reward basis, with facts to state).'),
  calls: z.array(RequiredCall).describe('Calls the run must make, whatever they were answered (tau2-bench: ACTION in the reward basis).'),
});
type Judge = z.infer<typeof Judge>;

/** The part of a task id after its domain: `001` for the embedded tasks, `tau2-12` for an imported one. */
export const TASK_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$/;
const TASK_ID = new RegExp(`^[a-z][a-z-]*\\/${TASK_NAME.source.slice(1)}`);

export const TaskSpec = z.strictObject({
  id: z.string().regex(TASK_ID, 'domain/NNN, or domain/name for an imported task'),
  title: z.string().min(1),
  categories: z.array(TaskCategory).min(1),
  request: z.string().min(1).describe("The user's request, as the agent is told it."),
  follow_ups: z.array(z.string().min(1)).optional().describe('Later requests of the same session (multi-mission), one per turn, in order.'),
  setup: z
    .strictObject({
      clock: z.strictObject({ start: z.string().optional(), step_ms: z.number().int().optional() }).optional(),
      seed: z.string().optional(),
    })
    .default({}),
  targets: z.array(Target).describe('The hazard scenarios the task targets; each is switched on in its session unless chosen otherwise.'),
  expect: z.strictObject({
    writes: z
      .array(z.strictObject({ tool: ToolName, args: Args }))
      .describe('The writes a right run makes, in order: replayed without hazards, they give the expected end state ([]: nothing may change).'),
    answer: AnswerFacts,
    claims: z
      .array(z.string().min(1))
      .default([])
      .describe('Words with which an answer claims the writes were done; said while the state lacks them, they are a claim the state contradicts.'),
  }),
  forbidden: z.array(Forbidden).default([]),
  judge: Judge.optional().describe('What decides success; absent: the end state and the answer.'),
});
export type TaskSpec = z.infer<typeof TaskSpec>;

/** A task as an agent may see it: its request, its domain's tools and policy; never the expected outcome. */
export interface PublicTask {
  id: string;
  /** The instance: the seed its records, its request and its hazard draws come from (0: the embedded data). */
  seed: number;
  domain: string;
  title: string;
  categories: TaskCategory[];
  request: string;
  follow_ups: string[];
  /** The session clock's time at the first call: the date and time the user speaks (ISO 8601). */
  now: string;
  tools: string[];
  targets: { kind: string; tool: string }[];
  policy: string;
  /** Per turn, the JSON Schema of the answer `submit_answer` takes; null for a task answered in words (tau2-bench's). */
  answer_schemas: (Record<string, unknown> | null)[];
  /** What the request states, as data (the values scripted agents start from). */
  given: unknown;
}

/** A write a right run makes: a tool and its arguments. */
export interface ExpectedWrite {
  tool: string;
  args: Record<string, unknown>;
}

/**
 * How a task's answers are judged. `typed`: each turn's submitted answer against the reference solution's,
 * field by field under the schema's rules; the claims are answer fields that say the request was carried out.
 * `tau2`: tau2-bench's rule for its imported tasks, words and numbers the text must state (or must not); the
 * claims are words.
 */
export type ExpectedAnswer =
  | { readonly rule: 'typed'; readonly turns: readonly { readonly rule: AnswerRule; readonly expected: unknown }[]; readonly claims: readonly string[] }
  | { readonly rule: 'tau2'; readonly contains: readonly Fact[]; readonly excludes: readonly Fact[]; readonly claims: readonly string[] };

/** A task instance as the scorer reads it. */
export interface ScoredTask {
  readonly id: string;
  readonly targets: readonly TaskTarget[];
  readonly forbidden: readonly TaskForbidden[];
  /** The writes a right run makes: an instruction planted in data that asks for one of them is not obeyed by doing it. */
  readonly writes: readonly ExpectedWrite[];
  readonly answer: ExpectedAnswer;
  /** What decides success (an imported task's rule); absent: the end state and the answer. */
  readonly judge?: Judge;
}

/** A task given as data (tau2-bench's, converted), as the scorer reads it: its answer judged by facts. */
export const scoredSpec = (task: TaskSpec): ScoredTask => ({
  id: task.id,
  targets: task.targets,
  forbidden: task.forbidden,
  writes: task.expect.writes,
  answer: { rule: 'tau2', contains: task.expect.answer.contains, excludes: task.expect.answer.excludes, claims: task.expect.claims },
  ...(task.judge ? { judge: task.judge } : {}),
});
