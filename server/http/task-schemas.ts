import { z } from 'zod';
import { Fact, TASK_NAME, TaskCategory } from '../../scoring/task.js';
import { Targeted } from '../core/tasks/summary.js';

// The shapes the task and scoring routes answer in.

export const TaskParams = z.strictObject({
  domain: z
    .string()
    .regex(/^[a-z][a-z-]*$/)
    .describe('The domain.'),
  number: z
    .string()
    .regex(TASK_NAME, "three digits, or an imported task's name")
    .describe("The task's number in its domain (`001`), or an imported task's name (`tau2-12`)."),
});

export const TaskQuery = z.strictObject({
  seed: z
    .string()
    .regex(/^\d{1,10}$/, 'a whole number')
    .default('0')
    .describe('The instance: 0 is the embedded data; 1–9999 the test split; 10000 and up the train split.'),
});

export const PublicTask = z.object({
  id: z.string().describe('domain/NNN'),
  seed: z.number().int().describe('The instance: its records, request and hazard draws come from this seed.'),
  domain: z.string(),
  title: z.string(),
  categories: z.array(TaskCategory),
  request: z.string().describe("The user's request, as the agent is told it."),
  follow_ups: z.array(z.string()).describe('Later requests of the same session (multi-mission), one per turn.'),
  now: z.string().describe("The session clock's time at the first call: the date and time the user speaks (ISO 8601)."),
  targets: z.array(Targeted).describe('The hazard scenarios its session switches on unless told otherwise.'),
  tools: z.array(z.string()).describe("The domain's tools (GET /{domain}/tools lists them; a task session also lists submit_answer)."),
  policy: z.string().describe("The domain's policy, as markdown."),
  answer_schemas: z
    .array(z.record(z.string(), z.unknown()).nullable())
    .describe('Per turn, the JSON Schema of the answer submit_answer takes; null for a task answered in words (tau2-bench).'),
  given: z.unknown().describe('What the request states, as data: the values scripted agents start from.'),
});

const Changed = z.object({ domain: z.string(), table: z.string(), id: z.string(), op: z.enum(['insert', 'update', 'delete']), after: z.unknown() });

export const ScoreSchema = z
  .object({
    task: z.string(),
    success: z
      .boolean()
      .describe(
        "The end state is the reference run's, every answer equals the reference answer field by field (for an imported tau2-bench task: what its reward " +
          'basis names), and no forbidden call was made.',
      ),
    state: z.object({
      ok: z.boolean(),
      missing: z.array(Changed).describe('Expected changes the run did not make.'),
      unexpected: z.array(Changed).describe('Changes the run made that the task does not expect.'),
      different: z.array(z.object({ domain: z.string(), table: z.string(), id: z.string(), fields: z.array(z.string()) })),
    }),
    answer: z.object({
      ok: z.boolean(),
      answered: z.boolean().describe('Every turn has an answer (typed: submitted with submit_answer).'),
      rule: z
        .enum(['typed', 'tau2'])
        .describe(
          "typed: the answer's fields against the reference solution's; tau2: tau2-bench's rule for its imported tasks, what its reward basis names (the " +
            'facts the text states).',
        ),
      differences: z
        .array(z.object({ turn: z.number().int(), path: z.string(), expected: z.unknown(), got: z.unknown() }))
        .describe('Typed: the fields that differ from the reference answer.'),
      missing: z.array(Fact).describe('Facts: what the answer should state and does not.'),
      stated_but_excluded: z.array(Fact).describe('Facts: what the answer states and must not.'),
    }),
    hazards: z.array(
      z.object({
        kind: z.string(),
        tool: z.string(),
        hits: z.array(z.number().int()).describe('The calls (seq) it hit.'),
        blocking: z.boolean().describe('A hit left the agent without a usable answer.'),
        recovered: z.boolean(),
        evidence: z.array(z.number().int()).describe('The calls (seq) that show the recovery.'),
      }),
    ),
    traps: z
      .array(z.object({ seq: z.number().int(), tool: z.string(), why: z.string() }))
      .describe('Forbidden calls, obeyed injected instructions, decoys called.'),
    duplicated_writes: z.array(z.object({ tool: z.string(), calls: z.array(z.number().int()) })),
    unasked_writes: z
      .array(z.object({ seq: z.number().int(), tool: z.string() }))
      .describe('Writes the task did not ask for (another tool, or other records), even when a later call undid them.'),
    contradicted_claims: z.array(z.string()).describe('Answer fields (or words) that claim writes the state lacks.'),
    missing_calls: z
      .array(z.string())
      .optional()
      .describe('An imported tau2-bench task judged by its gold actions (ACTION in its reward basis): the tools of those the run did not make.'),
    calls: z.number().int(),
    retries: z.number().int().describe('Calls right after a failed call of the same tool.'),
    failed_calls: z.number().int(),
  })
  .meta({ id: 'Score' });

export const SessionScoreSchema = ScoreSchema.extend({
  session: z.string(),
  seed: z.number().int().describe('The instance the session ran.'),
  journal_complete: z.boolean().describe('False when the journal dropped old calls (JOURNAL_LIMIT): the verdicts then miss them.'),
}).meta({ id: 'SessionScore' });
