import { defineKind, type Hook, type ResultHook, type ScenarioBase } from '../kind.js';
import type { HazardCall } from '../kind.js';

declare module '../kind.js' {
  interface ScenarioTypes<Db, Tool> {
    eventual_consistency: EventualConsistencyScenario<Db>;
  }
}

export interface EventualConsistencyScenario<Db = unknown> extends ScenarioBase<'eventual_consistency'> {
  /** The read that a replica answers, and the argument naming the record the write changed. */
  read: { tool: string; key: string };
  /** The id of the record this write changes (from its arguments); null when there is none. */
  record(hook: Hook<Db>): string | null;
  /** The record as reads saw it before the write, taken before the write runs. */
  capture(hook: Hook<Db>): unknown;
  /** A read's answer from the lagging replica: the fresh answer with the write's fields as captured. */
  stale(hook: ResultHook<Db>, before: unknown): unknown;
  /** How many reads of the record lag behind (default 2). */
  lag?: number;
}

const captured = new WeakMap<object, unknown>();

/**
 * After a successful write, the next reads of the record come from a replica that has not caught up:
 * they show it as it was before the write. A later read (or the write's own answer) is right.
 */
export const eventualConsistency = defineKind<EventualConsistencyScenario>({
  kind: 'eventual_consistency',
  family: 'execution',
  scope: 'call',
  retryable: false,
  sees: 'after a successful write, reads of the record still show it as it was, for a few reads',
  recovery: "trust the write's own answer (or read again a little later); do not repeat a write that succeeded",
  needs: ['trust_write_answer'],
  hint: () => 'Reads are served by a replica that lags behind writes for a moment.',
  before(call) {
    captured.set(call.context, call.scenario.capture(call.hook()));
  },
  after(call, result) {
    const hook = call.hook(result);
    const id = call.scenario.record(hook);
    if (id === null || !captured.has(call.context)) return result;
    lagReads(call, id, captured.get(call.context));
    return result;
  },
});

function lagReads(call: HazardCall<EventualConsistencyScenario>, id: string, before: unknown): void {
  const { scenario } = call;
  const lag = scenario.lag ?? 2;
  call.record({ record: id, lagging_reads: lag, read: scenario.read.tool });
  call.follow({
    tool: scenario.read.tool,
    calls: lag,
    matches: (args) => args[scenario.read.key] === id,
    apply: (result) => scenario.stale(call.hook(result), before),
    details: { record: id, replica: 'lagging' },
  });
}
