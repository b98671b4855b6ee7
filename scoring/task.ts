import { z } from 'zod';

// A task as data: what the agent is asked, how its session is set up, and how its run is judged.
// The expected outcome never leaves the server (see `publicTask`).

const ToolName = z.string().regex(/^[a-z][a-z0-9_]*$/, 'a tool name');
const Args = z.record(z.string(), z.unknown());

/** A word, a phrase or a number the final answer must state (or must not). Numbers match by value: 100 == 100.0 == $100.00. */
export const Fact = z.union([z.string().min(1), z.number()]);
export type Fact = z.infer<typeof Fact>;

export const TaskCategory = z.enum(['single-step', 'multi-step', 'parallel', 'multi-mission', 'refusal', 'partial']);
export type TaskCategory = z.infer<typeof TaskCategory>;

export const Target = z.strictObject({
  kind: z.string().describe('A hazard kind the domain declares on `tool`.'),
  tool: ToolName,
  recovery: z.string().min(1).describe('What the task expects an agent to do when the hazard hits.'),
  via: z.array(ToolName).optional().describe('Tools whose clean answer after a blocking hit shows the recovery (default: the hazarded tool itself).'),
});
export type Target = z.infer<typeof Target>;

export const Forbidden = z.strictObject({
  tool: ToolName,
  args: Args.optional().describe('The call is forbidden when its arguments include these (all of them); any call of the tool otherwise.'),
  why: z.string().min(1),
});
export type Forbidden = z.infer<typeof Forbidden>;

const AnswerFacts = z.strictObject({
  contains: z.array(Fact).default([]).describe('Facts the final answer must state.'),
  excludes: z.array(Fact).default([]).describe('Facts the final answer must not state (a false claim, a promoted item, an injected instruction).'),
});

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
});
export type TaskSpec = z.infer<typeof TaskSpec>;

/** A task as an agent may see it: its request, its domain's tools and policy; never the expected outcome. */
export interface PublicTask {
  id: string;
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
}

export const domainOf = (id: string): string => id.slice(0, id.indexOf('/'));
