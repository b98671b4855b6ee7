import { z } from 'zod';
import { jsonSchemaOf } from '../../lib/json-schema.js';
import { AnswerFields, saysSomething } from '../core/tasks/answers.js';
import { MAX_SEED } from '../core/tasks/seeds.js';
import { CreateSession } from '../core/tasks/setup.js';
import { isObject } from '../../lib/object.js';

// OpenEnv's wire protocol as wildtools speaks it: what reset takes, the actions a step takes, and the
// observation and state they answer with. One zod source gives validation, types and GET /openenv/schema.

/** Most steps an episode may take unless reset asks for another limit. */
export const DEFAULT_MAX_STEPS = 100;
export const MOST_STEPS = 1000;
/** OpenEnv's ResetRequest.episode_id limit. */
const MOST_EPISODE_ID = 255;

const Metadata = z.record(z.string(), z.unknown()).optional().describe("Free metadata (OpenEnv's Action.metadata); ignored.");

/** What reset takes (the `data` of a WebSocket reset, or the body of POST /reset). */
export const ResetData = CreateSession.omit({ id: true, seed: true })
  .extend({
    seed: z
      .union([z.number().int().min(0).max(MAX_SEED), z.string().regex(/^\d{1,10}$/, 'a whole number')])
      .optional()
      .describe(
        "The episode's seed: the task's instance (its records, request and hazard draws; drawn from the train split when absent), and which task when none " +
          'is named.',
      ),
    episode_id: z
      .string()
      .min(1)
      .max(MOST_EPISODE_ID)
      .optional()
      .describe(
        'The episode’s id (OpenEnv’s ResetRequest: any string up to 255 characters), reported by state; its session id is the same when it is one, ' +
          'else derived from it. Free again as soon as its episode closed.',
      ),
    domain: z.string().max(64).optional().describe('With no task named: choose among this domain’s tasks.'),
    category: z.string().max(64).optional().describe('With no task named: choose among tasks of this category.'),
    kind: z.string().max(64).optional().describe('With no task named: choose among tasks targeting this hazard kind.'),
    max_steps: z.number().int().min(1).max(MOST_STEPS).optional().describe(`Steps after which the episode ends unanswered (default ${DEFAULT_MAX_STEPS}).`),
    keep: z.boolean().optional().describe('Keep the session after its WebSocket closes (default: it is deleted then), to read its journal and score.'),
  })
  .describe('Reset: the task to run (named, or chosen by seed among the filtered tasks) and its hazards.');
export type ResetData = z.infer<typeof ResetData>;

/**
 * Reset's arguments as OpenEnv's server takes them: it passes `reset` only the keyword arguments its signature
 * accepts and drops the rest, so trainers send their own extras freely. The ones this environment does not take
 * are named in the reset observation's metadata; the ones it takes are still checked.
 */
export const LenientResetData = ResetData.loose();

/** Reset's arguments checked: those it takes parsed, and the names of those it ignores (sorted). */
export function parseReset(data: unknown): { success: true; data: ResetData; ignored: string[] } | { success: false; error: z.ZodError } {
  const lenient = LenientResetData.safeParse(data);
  return lenient.success ? { success: true, ...splitReset(lenient.data) } : lenient;
}

/** Checked reset arguments split into those reset takes and the names of the others (sorted). */
export function splitReset(data: z.infer<typeof LenientResetData>): { data: ResetData; ignored: string[] } {
  const known: Record<string, unknown> = {};
  const ignored: string[] = [];
  for (const [name, value] of Object.entries(data)) {
    if (Object.hasOwn(ResetData.shape, name)) known[name] = value;
    else ignored.push(name);
  }
  return { data: known as ResetData, ignored: ignored.sort() };
}

const CallToolAction = z.strictObject({
  type: z.literal('call_tool'),
  tool_name: z.string().min(1).max(128).describe("A tool of the task's domain, as the listing names it."),
  arguments: z.record(z.string(), z.unknown()).default({}).describe('The arguments, as the tool’s input schema asks.'),
  metadata: Metadata,
});
const ListToolsAction = z.strictObject({ type: z.literal('list_tools'), metadata: Metadata });
const AnswerAction = z
  .strictObject({ type: z.literal('answer'), ...AnswerFields, metadata: Metadata })
  .refine(...saysSomething)
  .describe("The final answer to the current request: a typed task's answer (the fields submit_answer takes), words for the user, or both.");

/** A step: a tool call (OpenEnv's CallToolAction), a re-read of the listing, or the final answer to the current request. */
export const Action = z.preprocess(
  // OpenEnv reads an action without a type as a tool call.
  (value) => (isObject(value) && !Object.hasOwn(value, 'type') ? { ...value, type: 'call_tool' } : value),
  z.discriminatedUnion('type', [CallToolAction, ListToolsAction, AnswerAction]),
);
export type Action = z.infer<typeof Action>;

/** A tool as the episode lists it (OpenEnv's Tool). */
export const ListedTool = z.object({ name: z.string(), description: z.string(), input_schema: z.record(z.string(), z.unknown()) });

/** The answer to a tool call as an HTTP client receives it; null when the connection failed without one. */
const HttpAnswer = z
  .object({
    status: z.number().int(),
    headers: z.record(z.string(), z.string()).describe('Content-Type and the headers the API sent (Retry-After, Deprecation, …).'),
    body: z.string().describe('The body exactly as sent (cut short or broken when the connection damaged it).'),
  })
  .nullable();

const ToolError = z
  .object({
    error_type: z.enum(['execution_error', 'invalid_args', 'transport_error', 'tool_not_found', 'timeout']),
    message: z.string(),
  })
  .nullable();

export const Observation = z
  .object({
    session_id: z.string().describe('The wildtools session of the episode: its journal, state and score are at /sessions/{id}/….'),
    step: z.number().int().describe('Steps taken in the episode.'),
    message: z.string().nullable().describe("The user's request: the task's on reset, the next follow-up after an answer; else null."),
    task: z
      .object({
        id: z.string(),
        domain: z.string(),
        title: z.string(),
        now: z.string().describe("The date and time the user speaks (ISO 8601): the session clock's time at the first call."),
        turns: z.number().int(),
        seed: z.number().int().describe('The instance.'),
      })
      .nullable()
      .describe('On reset: the task.'),
    policy: z.string().nullable().describe("On reset: the domain's policy (markdown)."),
    tools: z
      .array(ListedTool)
      .optional()
      .describe('On reset and list_tools only: the tools as this session lists them now (absent otherwise, never null: clients iterate it).'),
    tool_name: z.string().optional().describe('On a step that called a tool only (absent otherwise, never null: clients read it as a name).'),
    response: HttpAnswer.describe('After call_tool: the HTTP answer.'),
    result: z.unknown().describe('After call_tool: the body parsed as JSON, or null when it is not JSON.'),
    error: ToolError.describe('After call_tool: a failure of the call itself (an error status, no answer, a broken body).'),
    turn: z.number().int().describe('The current request, from 1.'),
    score: z.record(z.string(), z.unknown()).nullable().describe('On the terminal step: the deterministic score (GET /sessions/{id}/score).'),
    metadata: z
      .object({ ignored_kwargs: z.array(z.string()).describe('Reset arguments this environment does not take, ignored as OpenEnv’s server ignores them.') })
      .optional()
      .describe('On a reset that ignored some of its arguments.'),
  })
  .describe('What the agent observes after reset or a step.');
export type Observation = z.infer<typeof Observation>;

export const EpisodeState = z
  .object({
    episode_id: z.string().nullable(),
    step_count: z.number().int(),
    session_id: z.string().nullable(),
    task: z.string().nullable(),
    seed: z.number().int().nullable().describe("The task's instance."),
    turn: z.number().int(),
    turns: z.number().int(),
    max_steps: z.number().int(),
    done: z.boolean(),
    calls: z.number().int().describe('Tool calls journaled in the session.'),
  })
  .describe("The episode's state (OpenEnv's State: episode_id, step_count, and wildtools' own fields).");
export type EpisodeState = z.infer<typeof EpisodeState>;

/** An observation with its reward and end flag, as reset and step answer. */
export interface StepResult {
  observation: Observation;
  reward: number | null;
  done: boolean;
  metadata?: Record<string, unknown>;
}

/** The protocol's JSON Schemas: GET /openenv/schema answers action, observation and state; the client's types come from all four. */
export const OPENENV_SCHEMAS = {
  reset: jsonSchemaOf(ResetData, 'input'),
  action: jsonSchemaOf(Action, 'input'),
  observation: jsonSchemaOf(Observation, 'output'),
  state: jsonSchemaOf(EpisodeState, 'output'),
};
