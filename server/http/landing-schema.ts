import { z } from 'zod';

// What GET / answers in JSON: where to go from the root of the server.

const Link = z.string().describe('A path on this server.');

export const Landing = z.object({
  name: z.literal('wildtools'),
  version: z.string(),
  sessions: z
    .array(
      z.object({
        id: z.string(),
        calls: z.number().int(),
        task: z.string().optional().describe('The task the session runs.'),
        view: Link.describe('The session page (HTML): timeline, hazards, diff, score.'),
        journal: Link,
        score: Link.optional().describe("The task's score report, for a session that runs one."),
      }),
    )
    .describe('The live sessions.'),
  tasks: z.object({
    count: z.number().int(),
    by_domain: z.record(z.string(), z.object({ count: z.number().int(), list: Link })),
    list: Link,
  }),
  docs: z.object({
    swagger_ui: Link,
    openapi: Link.describe('The combined document: sessions, tasks, server routes and the combined view of the tools.'),
    domains: z.record(z.string(), Link).describe("Each domain's own document."),
    health: Link,
    hazards: Link,
  }),
  reports: z
    .object({
      batches: z
        .array(z.object({ id: z.string(), task: z.string(), sessions: z.number().int(), report: Link }))
        .describe('Batch reports: verdicts and pass^k.'),
    })
    .describe("Reports: each task session's score (under `sessions`) and the batches' reports."),
});
export type Landing = z.infer<typeof Landing>;
