import { z } from 'zod';
import { Problem } from '../core/problem-responses.js';
import { SessionId } from '../core/sessions/session.js';

// The shapes the session routes answer in.

export const Params = z.strictObject({ id: SessionId.describe('The session id.') });

export const Summary = z.object({
  id: z.string(),
  seed: z
    .union([z.string(), z.number().int()])
    .describe("The session's seed as it was given at creation (a number or a string); a task's drawn seed; else the server's HAZARD_SEED, a string."),
  clock: z.object({ start: z.string(), step_ms: z.number(), now: z.string() }),
  calls: z.number().int(),
  journal: z
    .object({
      entries: z.number().int().describe('Entries kept.'),
      dropped: z.number().int().describe('The oldest entries dropped to stay within JOURNAL_LIMIT and JOURNAL_MEMORY.'),
      bytes: z.number().int().describe('Size of the kept entries as JSON, counted against JOURNAL_MEMORY.'),
    })
    .describe("The session's journal."),
  hazard_hits: z
    .record(z.string(), z.number().int())
    .describe('Per hazard kind: how many calls of the session it struck, including calls the journal dropped.'),
  changed_domains: z.array(z.string()),
  task: z.string().optional().describe('The task the session runs.'),
  answers: z.number().int().optional().describe("The final answers recorded for the session's task."),
});

const Database = z
  .record(z.string(), z.record(z.string(), z.unknown()).describe('A table: its records by id.'))
  .describe("A domain's database: its tables by name.");

export const State = z
  .record(z.string(), Database)
  .describe("Every domain database as the session sees it, by domain name, and every mock's records, by its proxy's name.");

export const Diff = z
  .record(
    z.string(),
    z.array(
      z.object({
        table: z.string(),
        id: z.string(),
        op: z.enum(['insert', 'update', 'delete']),
        fields: z.array(z.string()).optional().describe('Dotted paths of the fields that differ (for updates).'),
        before: z.unknown(),
        after: z.unknown(),
      }),
    ),
  )
  .describe('The records each domain changed, by domain name.');

const HazardEvent = z
  .object({
    kind: z.string(),
    family: z.string(),
    tool: z.string(),
    call: z.number().int(),
    recovery: z.string(),
    hint: z.string().optional(),
    retryable: z.boolean().describe('A fault a plain retry gets past.'),
    committed: z.boolean().optional().describe('For a failed write: whether it ran before its answer was lost.'),
  })
  .catchall(z.unknown())
  .describe('A hazard injected into the call, with the details of its kind.');

const JournalEntry = z.object({
  seq: z.number().int(),
  at: z.string().describe("The session clock's time of the call (ISO 8601)."),
  domain: z.string(),
  tool: z.string(),
  call: z
    .number()
    .int()
    .describe('The n-th call of this tool in the session, counting from 1; 0 for a call of a tool that does not exist (its problem says so).'),
  args: z.unknown().describe('The arguments as sent; for a refused call larger than 2 KiB, the start of their JSON text.'),
  args_truncated: z.object({ bytes: z.number().int(), kept: z.number().int() }).optional().describe('Present when args was cut.'),
  status: z.number().int(),
  result: z.unknown().describe('The answer of a successful call.'),
  problem: Problem.optional().describe('The problem of a refused call.'),
  idempotency: z.object({ key: z.string(), replayed: z.number().int().optional().describe('The call replayed, when it did not write again.') }).optional(),
  changes: z.array(z.object({ table: z.string(), id: z.string(), value: z.unknown() })).describe('Records the call wrote.'),
  hazards: z.array(HazardEvent),
  duration_ms: z.number().describe('Wall time spent serving the call: observation only.'),
});

export const Journal = {
  description: 'The calls, oldest first.',
  content: {
    'application/json': { schema: z.array(JournalEntry) },
    'application/x-ndjson': { schema: z.string().describe('format=jsonl: one entry per line, as JSON.') },
  },
};
