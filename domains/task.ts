import type { z } from 'zod';
import type { Random } from '../lib/random.js';
import type { TaskCategory, TaskForbidden, TaskTarget } from '../lib/task-terms.js';

export type { TaskForbidden, TaskTarget };
import { ToolError } from './errors.js';
import type { AnyTool } from './tool.js';

// A task is a template: for a seed it picks its records from that seed's database, tells the user's need in
// words, and states what the agent must report as a typed answer. Its reference solution, run hazard-free on
// the instance, gives the expected end state and the expected answer: nothing is written by hand.

/** A session clock: its time at the first call (ISO 8601 with offset) and its step per call. */
export interface TaskClock {
  readonly start?: string;
  readonly step_ms?: number;
}

/** What a template picks its instance from. */
export interface TaskWorld<Db> {
  /** The domain's database for the seed, as tools read it. */
  readonly db: Db;
  /** Seeded by the task and the seed: the same instance every time. */
  readonly random: Random;
  readonly seed: number;
  /** The session clock's time at the first call. */
  readonly now: Date;
}

/** The tools as the reference solution calls them: each runs at once on the instance, without hazards; a broken rule throws its ToolError. */
export type Solver<Tools extends readonly AnyTool[]> = {
  readonly [T in Tools[number] as T['name']]: (args: z.input<T['input']>) => z.output<T['output']>;
};

/** One request of a task and what answers it: the first one, or a later one of a multi-mission task. */
export interface TaskTurn<Given, Tools extends readonly AnyTool[], Answer extends z.ZodObject = z.ZodObject> {
  /** The user's words, from what the template picked. */
  request(given: Given): string;
  /** What the agent reports (its fields' descriptions say what each holds), built with `field` (lib/answer-fields.ts). */
  readonly answer: Answer;
  /** The reference solution of this turn: the calls a right run makes and the answer it gives. */
  solve(tools: Solver<Tools>, given: Given): z.output<Answer>;
}

export interface TaskTemplate<Db = unknown, Tools extends readonly AnyTool[] = readonly AnyTool[], Given = unknown, Answer extends z.ZodObject = z.ZodObject>
  extends TaskTurn<Given, Tools, Answer> {
  /** `<domain>/<NNN>`, the file's name. */
  readonly id: string;
  readonly title: string;
  readonly categories: readonly TaskCategory[];
  /**
   * The session clock (default: the domain's "now", one second per call), or how an instance picks it (a weather
   * task's day and hour), with a generator seeded by the task and the seed.
   */
  readonly clock?: TaskClock | ((random: Random) => TaskClock);
  /** Picks the instance's records; its result is what the request states (public: scripted agents read it). */
  pick(world: TaskWorld<Db>): Given;
  /** Later requests of the same session (multi-mission), in order. */
  readonly follow_ups?: readonly TaskTurn<Given, Tools>[];
  readonly targets: readonly TaskTarget[];
  readonly forbidden?: readonly TaskForbidden[] | ((given: Given) => readonly TaskForbidden[]);
  /**
   * Answer fields (of the first turn) that say the request was carried out: stated as expected while the
   * expected writes are missing, they are a claim the state contradicts.
   */
  readonly claims?: readonly string[];
}

// biome-ignore lint/suspicious/noExplicitAny: a template of any domain: its database, tools and picks are its own
export type AnyTaskTemplate = TaskTemplate<any, readonly AnyTool[], any, any>;

/**
 * The `defineTask` of a domain: templates typed by its database and its tools. Turns are typed one by one
 * with `turn`.
 */
export function taskDefiner<Db, Tools extends readonly AnyTool[]>() {
  return {
    task: <Given, Answer extends z.ZodObject>(template: TaskTemplate<Db, Tools, Given, Answer>): TaskTemplate<Db, Tools, Given, Answer> => template,
    turn: <Given, Answer extends z.ZodObject>(turn: TaskTurn<Given, Tools, Answer>): TaskTurn<Given, Tools> => turn as unknown as TaskTurn<Given, Tools>,
  };
}

/** A template that finds nothing to pick in a seed's database: names the task and what it looked for. */
export class NoInstance extends Error {
  override readonly name = 'NoInstance';
}

/** What a call of the reference solution came to: its result, or the rule it broke. */
export type Attempt<T> = { ok: true; value: T } | { ok: false; status: number; code: string; detail: string };

/** Runs a call of the reference solution that may be refused (a refusal task), without throwing. */
export function attempt<T>(call: () => T): Attempt<T> {
  try {
    return { ok: true, value: call() };
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    return { ok: false, status: error.status, code: error.code, detail: error.message };
  }
}
