import { z } from 'zod';
import { Fact, TASK_NAME, TaskCategory } from '../../scoring/task.js';

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

const Targeted = z.object({ kind: z.string(), tool: z.string() });

export const TaskSummary = z.object({
  id: z.string().describe('domain/NNN'),
  domain: z.string(),
  title: z.string(),
  categories: z.array(TaskCategory),
  request: z.string(),
  follow_ups: z.array(z.string()).describe('Later requests of the same session (multi-mission), one per turn.'),
  now: z.string().describe("The session clock's time at the first call: the date and time the user speaks (ISO 8601)."),
  targets: z.array(Targeted).describe('The hazard scenarios its session switches on unless told otherwise.'),
});

export const PublicTask = TaskSummary.extend({
  tools: z.array(z.string()).describe("The domain's tools (GET /{domain}/tools lists them)."),
  policy: z.string().describe("The domain's policy, as markdown."),
});

const Changed = z.object({ domain: z.string(), table: z.string(), id: z.string(), op: z.enum(['insert', 'update', 'delete']), after: z.unknown() });

export const ScoreSchema = z
  .object({
    task: z.string(),
    success: z.boolean().describe('The end state is the expected one, the answer states the facts and no forbidden call was made.'),
    state: z.object({
      ok: z.boolean(),
      missing: z.array(Changed).describe('Expected changes the run did not make.'),
      unexpected: z.array(Changed).describe('Changes the run made that the task does not expect.'),
      different: z.array(z.object({ domain: z.string(), table: z.string(), id: z.string(), fields: z.array(z.string()) })),
    }),
    answer: z.object({
      ok: z.boolean(),
      answered: z.boolean(),
      missing: z.array(Fact).describe('Facts the answer should state and does not.'),
      stated_but_excluded: z.array(Fact).describe('Facts the answer states and must not.'),
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
    contradicted_claims: z.array(z.string()).describe('Words of the answer that claim writes the state lacks.'),
    calls: z.number().int(),
    retries: z.number().int().describe('Calls right after a failed call of the same tool.'),
    failed_calls: z.number().int(),
  })
  .meta({ id: 'Score' });

export const SessionScoreSchema = ScoreSchema.extend({
  session: z.string(),
  journal_complete: z.boolean().describe('False when the journal dropped old calls (JOURNAL_LIMIT): the verdicts then miss them.'),
}).meta({ id: 'SessionScore' });
