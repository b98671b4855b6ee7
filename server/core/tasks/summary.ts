import { z } from 'zod';
import { TaskCategory } from '../../../scoring/task.js';
import type { TaskEntry } from './book.js';

// A task as listings show it (GET /tasks, GET /openenv/tasks): what the agent is asked to do and which hazards
// its session switches on, never the expected outcome.

export const Targeted = z.object({ kind: z.string(), tool: z.string() });

export const TaskSummary = z.object({
  id: z.string().describe('domain/NNN'),
  domain: z.string(),
  title: z.string(),
  categories: z.array(TaskCategory),
  turns: z.number().int().describe('How many requests the user makes (more than one: multi-mission).'),
  source: z
    .enum(['template', 'data'])
    .describe(
      'template: each seed gives the task its own records, request and outcome; data: one set of data (an imported tau2-bench task), the seed fixing only ' +
        'the hazards.',
    ),
  targets: z.array(Targeted).describe('The hazard scenarios its session switches on unless told otherwise.'),
});

export type TaskSummary = z.infer<typeof TaskSummary>;

export const taskSummary = ({ id, domain, title, categories, turns, source, targets }: TaskEntry): TaskSummary => ({
  id,
  domain: domain.name,
  title,
  categories: [...categories],
  turns,
  source,
  targets: targets.map(({ kind, tool }) => ({ kind, tool })),
});
