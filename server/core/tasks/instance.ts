import type { z } from 'zod';
import type { Domain } from '../../../domains/domain.js';
import type { AnyTaskTemplate, TaskTurn } from '../../../domains/task.js';
import type { CompatMode } from '../../../domains/tool.js';
import { type AnswerRule, ruleOf } from '../../../lib/answer-fields.js';
import { type JsonSchema, jsonSchemaOf } from '../../../lib/json-schema.js';
import { Random } from '../../../lib/random.js';
import type { TaskCategory } from '../../../lib/task-terms.js';
import { type ChangedRecord, type ClockPaths, clockPathsOf } from '../../../scoring/end-state.js';
import { type ExpectedWrite, type ScoredTask, scoredSpec, type TaskSpec } from '../../../scoring/task.js';
import type { BaseDatabase } from '../data/base.js';
import { DomainState } from '../data/domain-state.js';
import { ClockOptions, SessionClock } from '../sessions/clock.js';
import { referenceTools } from './reference.js';

/** One request of an instance and, for a typed task, what answers it. */
export interface InstanceTurn {
  readonly request: string;
  /** The answer `submit_answer` takes: its schema, as JSON Schema, how it is compared, and the reference solution's. */
  readonly answer?: { readonly schema: z.ZodObject; readonly json: JsonSchema; readonly rule: AnswerRule; readonly expected: unknown };
}

/** A task made concrete for a seed: its records, its words, and what a right run ends with. */
export interface TaskInstance {
  readonly id: string;
  readonly seed: number;
  readonly domain: Domain;
  readonly title: string;
  readonly categories: readonly TaskCategory[];
  readonly clock: ClockOptions;
  /** The database of the task's domain for the seed: what the instance's sessions start from. */
  readonly base: BaseDatabase;
  /** What the request states, as data. */
  readonly given: unknown;
  readonly turns: readonly InstanceTurn[];
  readonly scored: ScoredTask;
  /** The records a right run changes, as the reference run left them. */
  readonly expected: readonly ChangedRecord[];
  /** The values in `expected` the clock wrote. */
  readonly clockPaths: ClockPaths;
}

/** The records a domain's state changed, as the scorer compares them. */
export function changedRecords(domain: string, state: DomainState): ChangedRecord[] {
  return state.diff().map(({ table, id, op, after }) => ({ domain, table, id, op, after }));
}

/** The same clock started a minute later and ticking differently: what differs between runs on both is what the clock wrote. */
const otherClock = (clock: ClockOptions): ClockOptions => ({
  start: new Date(Date.parse(clock.start) + 61_000).toISOString(),
  step_ms: clock.step_ms * 2 + 7_000,
});

interface ReferenceRun<T> {
  value: T;
  writes: ExpectedWrite[];
  records: ChangedRecord[];
}

/** Runs `work` with the domain's tools on a fresh copy of the database, on the given clock. */
function referenceRun<T>(
  domain: Domain,
  base: BaseDatabase,
  clock: ClockOptions,
  compat: CompatMode,
  work: (tools: Record<string, never>) => T,
): ReferenceRun<T> {
  const state = new DomainState(base);
  const writes: ExpectedWrite[] = [];
  const tools = referenceTools(domain, state, new SessionClock(clock), compat, writes);
  const value = work(tools as Record<string, never>);
  return { value, writes, records: changedRecords(domain.name, state) };
}

/** Runs `work` twice (see otherClock): the first run, and the paths its clock wrote. */
function twiceOnClocks<T>(domain: Domain, base: BaseDatabase, clock: ClockOptions, compat: CompatMode, work: (tools: Record<string, never>) => T) {
  const first = referenceRun(domain, base, clock, compat, work);
  const second = referenceRun(domain, base, otherClock(clock), compat, work);
  return { ...first, clockPaths: clockPathsOf(first.records, second.records) };
}

/** A template's instance for a seed: picked from the seed's database, its expected outcome from its reference solution. */
export function templateInstance(template: AnyTaskTemplate, domain: Domain, base: BaseDatabase, seed: number, compat: CompatMode): TaskInstance {
  const clock = ClockOptions.parse((typeof template.clock === 'function' ? template.clock(new Random(`${template.id}#${seed}#clock`)) : template.clock) ?? {});
  const random = new Random(`${template.id}#${seed}`);
  const given = new DomainState(base).read((db) => template.pick({ db, random, seed, now: new Date(clock.start) }));
  const turns: readonly TaskTurn<unknown, never>[] = [template, ...(template.follow_ups ?? [])];
  const run = twiceOnClocks(domain, base, clock, compat, (tools) => turns.map((turn) => turn.answer.parse(turn.solve(tools as never, given))));
  const forbidden = typeof template.forbidden === 'function' ? template.forbidden(given) : (template.forbidden ?? []);
  return {
    id: template.id,
    seed,
    domain,
    title: template.title,
    categories: template.categories,
    clock,
    base,
    given,
    turns: turns.map((turn, i) => ({
      request: turn.request(given),
      answer: { schema: turn.answer, json: jsonSchemaOf(turn.answer, 'input'), rule: ruleOf(turn.answer), expected: run.value[i] },
    })),
    scored: {
      id: template.id,
      targets: template.targets,
      forbidden,
      writes: run.writes,
      answer: {
        rule: 'typed',
        turns: turns.map((turn, i) => ({ rule: ruleOf(turn.answer), expected: run.value[i] })),
        claims: template.claims ?? [],
      },
    },
    expected: run.records,
    clockPaths: run.clockPaths,
  };
}

/**
 * A task given as data (tau2-bench's): its data is the database the server loaded, whatever the seed (which
 * still fixes the hazard draws); its gold writes replayed give its end state.
 */
export function specInstance(spec: TaskSpec, domain: Domain, base: BaseDatabase, seed: number, compat: CompatMode): TaskInstance {
  const clock = ClockOptions.parse(spec.setup.clock ?? {});
  const run = twiceOnClocks(domain, base, clock, compat, (tools) => {
    for (const write of spec.expect.writes) (tools as unknown as Record<string, (args: unknown) => unknown>)[write.tool]!(write.args);
  });
  return {
    id: spec.id,
    seed,
    domain,
    title: spec.title,
    categories: spec.categories,
    clock,
    base,
    given: {},
    turns: [spec.request, ...(spec.follow_ups ?? [])].map((request) => ({ request })),
    scored: scoredSpec(spec),
    expected: run.records,
    clockPaths: run.clockPaths,
  };
}
