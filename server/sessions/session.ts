import { z } from 'zod';
import type { BaseDatabase } from '../data/base.js';
import { DomainState } from '../data/domain-state.js';
import { ClockOptions, SessionClock } from './clock.js';
import type { JournalEntry } from './journal.js';

export const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
export const SessionId = z
  .string()
  .regex(SESSION_ID, 'letters, digits, ".", "_" or "-", starting with a letter or digit, at most 64 characters');

export const SessionOptions = z.strictObject({
  id: SessionId.optional().describe('The id to give the session; a new unique id when absent.'),
  seed: z
    .union([z.string().max(128), z.number().int()])
    .optional()
    .describe("Seed of the session's deterministic choices (hazard schedule, generated ids); HAZARD_SEED when absent."),
  clock: ClockOptions.optional(),
});
export type SessionOptions = z.infer<typeof SessionOptions>;

/**
 * An isolated world: its own view of every domain database (copy-on-write over the shared
 * base), its own clock, call counters and journal.
 */
export class Session {
  readonly clock: SessionClock;
  readonly seed: string;
  journal: JournalEntry[] = [];
  /** Monotonic milliseconds of the last use, for expiry. */
  lastUsedMs: number;
  private readonly states = new Map<string, DomainState>();
  private readonly calls = new Map<string, number>();

  constructor(
    readonly id: string,
    readonly options: SessionOptions,
    private readonly bases: ReadonlyMap<string, BaseDatabase>,
    nowMs: number,
    defaultSeed: string,
  ) {
    this.seed = options.seed === undefined ? defaultSeed : String(options.seed);
    this.clock = new SessionClock(ClockOptions.parse(options.clock ?? {}));
    this.lastUsedMs = nowMs;
  }

  /** This session's view of a domain database, created on first use. */
  domain(name: string): DomainState {
    let state = this.states.get(name);
    if (!state) {
      const base = this.bases.get(name);
      if (!base) throw new RangeError(`unknown domain ${name}`);
      state = new DomainState(base);
      this.states.set(name, state);
    }
    return state;
  }

  domainNames(): string[] {
    return [...this.bases.keys()];
  }

  /** Counts a call of a tool and returns its number (1 for the first). */
  countCall(domain: string, tool: string): number {
    const key = `${domain}/${tool}`;
    const n = (this.calls.get(key) ?? 0) + 1;
    this.calls.set(key, n);
    return n;
  }

  get nextSeq(): number {
    return this.journal.length + 1;
  }

  /** Re-applies a call recorded earlier (restoring from disk): journal, changes, counters, clock. */
  replay(entry: JournalEntry): void {
    this.journal.push(entry);
    if (entry.changes.length > 0) this.domain(entry.domain).apply(entry.changes);
    this.countCall(entry.domain, entry.tool);
    this.clock.tick();
  }

  /** Back to the start: the base databases, an empty journal, the clock at its start. */
  reset(): void {
    for (const state of this.states.values()) state.reset();
    this.journal = [];
    this.calls.clear();
    this.clock.restore(0);
  }

  summary() {
    return {
      id: this.id,
      seed: this.seed,
      clock: { ...this.clock.options, now: this.clock.now().toISOString() },
      calls: this.journal.length,
      changed_domains: [...this.states].filter(([, s]) => s.changed).map(([name]) => name),
    };
  }
}
