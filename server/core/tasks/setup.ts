import { z } from 'zod';
import type { HazardSpec } from '../../../hazards/spec.js';
import { problemError } from '../problem.js';
import { SessionOptions } from '../sessions/session.js';
import type { TaskBook, TaskEntry } from './book.js';
import type { TaskInstance } from './instance.js';
import { drawnSeed, MAX_SEED, seedOf } from './seeds.js';

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
export function taskHazards(task: TaskEntry, kinds: readonly string[] | undefined, rate: number, own: HazardSpec | undefined): HazardSpec {
  const domain = task.domain.name;
  const tools: Record<string, Record<string, number>> = {};
  for (const target of task.targets) {
    if (kinds && !kinds.includes(target.kind)) continue;
    const key = `${domain}__${target.tool}`;
    tools[key] = { ...tools[key], [target.kind]: rate };
  }
  return { enable: ['none'], ...own, tools: { ...tools, ...own?.tools } };
}

/** A new session's options, set up by the task it names (with its instance), or as given. */
export interface PreparedSession {
  options: SessionOptions;
  instance?: TaskInstance;
}

/**
 * The options of a new session: as given, or set up by the task it names — its instance for the seed (drawn
 * from the train split by the session's id when absent, and reported), its clock, its targeted hazards.
 */
export async function prepareSession(body: CreateSession, tasks: TaskBook, newId: () => string): Promise<PreparedSession> {
  const { kinds, hazard_rate, ...options } = body;
  if (options.task === undefined) {
    const field = kinds !== undefined ? 'kinds' : hazard_rate !== undefined ? 'hazard_rate' : undefined;
    if (field) throw problemError(400, 'invalid_input', `${field} chooses among a task's hazards: name the task too`, { field });
    return { options };
  }
  const task = (await tasks.ready()).require(options.task);
  const targeted = new Set(task.targets.map((target) => target.kind));
  const stray = kinds?.find((kind) => !targeted.has(kind));
  if (stray !== undefined) {
    throw problemError(400, 'invalid_input', `${task.id} targets ${[...targeted].join(', ') || 'no hazard'}, not ${JSON.stringify(stray)}`, { field: 'kinds' });
  }
  const id = options.id ?? newId();
  const seed = options.seed === undefined ? drawnSeed(id) : seedOf(options.seed);
  if (seed === undefined) throw problemError(400, 'invalid_input', `seed: a task's seed is a whole number from 0 to ${MAX_SEED}`, { field: 'seed' });
  const instance = tasks.instance(task.id, seed);
  return {
    options: {
      ...options,
      id,
      // As given ('3' stays a string in the session's summary); its instance is the number's.
      seed: options.seed ?? seed,
      clock: options.clock ?? instance.clock,
      hazards: taskHazards(task, kinds, hazard_rate ?? 1, options.hazards),
    },
    instance,
  };
}
