import { z } from 'zod';
import type { HazardSpec } from '../../hazards/spec.js';
import { domainOf, type TaskSpec } from '../../scoring/task.js';
import { problemError } from '../problem.js';
import { SessionOptions } from '../sessions/session.js';
import type { TaskBook } from './book.js';

/** What POST /sessions takes: a session's options, and for a task, which of its hazards to switch on and how often. */
export const CreateSession = SessionOptions.extend({
  kinds: z
    .array(z.string().max(64))
    .max(32)
    .optional()
    .describe('With a task: the targeted kinds to switch on (default all; [] for none). The journal says which ones hit.'),
  hazard_rate: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe('With a task: the probability that each targeted scenario hits an eligible call (default 1), so that training can raise difficulty over time.'),
});
export type CreateSession = z.infer<typeof CreateSession>;

/** The hazard settings of a task's session: only its targeted scenarios (of the chosen kinds), at the rate, then the caller's own settings. */
export function taskHazards(task: TaskSpec, kinds: readonly string[] | undefined, rate: number, own: HazardSpec | undefined): HazardSpec {
  const domain = domainOf(task.id);
  const tools: Record<string, Record<string, number>> = {};
  for (const target of task.targets) {
    if (kinds && !kinds.includes(target.kind)) continue;
    const key = `${domain}__${target.tool}`;
    tools[key] = { ...tools[key], [target.kind]: rate };
  }
  return { enable: ['none'], ...own, tools: { ...tools, ...own?.tools } };
}

/** The options of a new session: as given, or set up by the task it names. */
export function sessionOptions(body: CreateSession, tasks: TaskBook): SessionOptions {
  const { kinds, hazard_rate, ...options } = body;
  if (options.task === undefined) {
    const field = kinds !== undefined ? 'kinds' : hazard_rate !== undefined ? 'hazard_rate' : undefined;
    if (field) throw problemError(400, 'invalid_input', `${field} chooses among a task's hazards: name the task too`, { field });
    return options;
  }
  const task = tasks.get(options.task);
  if (!task) throw problemError(404, 'unknown_task', `No task ${JSON.stringify(options.task)}; GET /tasks lists them.`, { field: 'task' });
  const targeted = new Set(task.targets.map((target) => target.kind));
  const stray = kinds?.find((kind) => !targeted.has(kind));
  if (stray !== undefined) {
    throw problemError(400, 'invalid_input', `${task.id} targets ${[...targeted].join(', ') || 'no hazard'}, not ${JSON.stringify(stray)}`, { field: 'kinds' });
  }
  const clock = options.clock ?? task.setup.clock;
  const seed = options.seed ?? task.setup.seed;
  return {
    ...options,
    ...(clock ? { clock: clock as SessionOptions['clock'] } : {}),
    ...(seed !== undefined ? { seed } : {}),
    hazards: taskHazards(task, kinds, hazard_rate ?? 1, options.hazards),
  };
}
