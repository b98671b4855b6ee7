import { z } from 'zod';
import type { CompatMode } from '../../../domains/tool.js';
import type { AttachedDatabases } from '../data/attached.js';
import type { BaseDatabase } from '../data/base.js';
import { DomainState, type RecordDiff } from '../data/domain-state.js';
import { HazardSpec } from '../../../hazards/spec.js';
import { ClockOptions, SessionClock } from './clock.js';
import type { Change } from '../data/overlay.js';
import { IdempotencyKeys, type LegacyRemembered, type Remembered } from './idempotency.js';
import { entryBytes, type HeldEntry, Journal, JournalBudget, type JournalEntry } from './journal.js';
import type { SubmittedAnswer } from '../../../scoring/score.js';
import type { ExpectedWrite } from '../../../scoring/task.js';
import type { TaskInstance } from '../tasks/instance.js';

/** A session as plain data (persistence). */
export interface SavedSession {
  seq: number;
  ticks: number;
  calls: Record<string, number>;
  changes: Record<string, Change[]>;
  /** Per domain/tool: how many of its latest calls in a row a retryable fault hit. */
  streaks?: Record<string, number>;
  /** Per hazard kind: how many calls it struck (all calls, including those the journal dropped). */
  hits?: Record<string, number>;
  /** The idempotency keys of recent writes (kept apart from the journal, which may drop old calls); older snapshots hold legacy ones. */
  idempotency?: [string, Remembered | LegacyRemembered][];
  /** Oldest first; an entry read back from disk may still be its JSON text. */
  journal: HeldEntry[];
  /** The final answers recorded for the session's task. */
  answers?: SubmittedAnswer[];
}

export const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
export const SessionId = z.string().regex(SESSION_ID, 'letters, digits, ".", "_" or "-", starting with a letter or digit, at most 64 characters');

export const SessionOptions = z.strictObject({
  id: SessionId.optional().describe('The id to give the session; a new unique id when absent.'),
  seed: z
    .union([z.string().max(128), z.number().int()])
    .optional()
    .describe(
      "Seed of the session's deterministic choices: with a task, its instance (a whole number: the records, the request and the hazard draws; drawn and " +
        'reported when absent); otherwise the hazard schedule (HAZARD_SEED when absent). With a seed, the hazard draws depend on the seed, the task, the ' +
        "tool, the kind and the call's number, never on the session's id.",
    ),
  clock: ClockOptions.optional(),
  hazards: HazardSpec.optional().describe("This session's hazard settings, over the server's (env, config file, runtime)."),
  task: z.string().max(64).optional().describe('The task the session runs (GET /tasks): its clock, seed and targeted hazards set the session up.'),
});
export type SessionOptions = z.infer<typeof SessionOptions>;

/** The clock of a session created without one (parsed once: a session is created at every rollout). */
const DEFAULT_CLOCK: ClockOptions = Object.freeze(ClockOptions.parse({}));

/**
 * An isolated world: its own view of every domain database (copy-on-write over the shared
 * base), its own clock, call counters and journal.
 */
export class Session {
  readonly clock: SessionClock;
  readonly seed: string;
  /** What hazard draws are keyed by besides the seed (see HazardSession.scope). */
  readonly scope: string;
  /** The most recent calls, within the per-session limit and the shared budget. */
  readonly journal: Journal;
  /** Calls made so far (the sequence number of the last call). */
  seq = 0;
  /** How many times the session was reset: state kept beside it (a proxy's read cache) starts again when it moves. */
  generation = 0;
  /** Monotonic milliseconds of the last use, for expiry. */
  lastUsedMs: number;
  /** Writes done under an idempotency key, so that a retry with the key does not write again. */
  readonly idempotency = new IdempotencyKeys();
  /** The agent's final answers, one per turn of its task (submit_answer, or POST /sessions/{id}/answer). */
  readonly answers: SubmittedAnswer[] = [];
  private readonly states = new Map<string, DomainState>();
  /** The session's view of each attached database (a mock's records), by name. */
  private readonly attachedStates = new Map<string, DomainState>();
  private readonly calls = new Map<string, number>();
  private readonly streaks = new Map<string, number>();
  private readonly hits = new Map<string, number>();

  constructor(
    readonly id: string,
    readonly options: SessionOptions,
    private bases: ReadonlyMap<string, BaseDatabase>,
    nowMs: number,
    defaultSeed: string,
    journal: { limit: number; budget: JournalBudget } = { limit: Infinity, budget: new JournalBudget(Infinity) },
    /** The compatibility mode the session's tools run in (TAU2_COMPAT). */
    readonly compat: CompatMode = 'off',
    /** The task instance the session runs: its domain's database replaces the server's. */
    readonly instance?: TaskInstance,
    /** Databases beside the domains' (mocks' records), found by name as a domain is. */
    private readonly attached?: AttachedDatabases,
  ) {
    if (instance) this.bases = new Map([...bases, [instance.domain.name, instance.base]]);
    this.journal = new Journal(journal.limit, journal.budget);
    this.seed = options.seed === undefined ? defaultSeed : String(options.seed);
    this.scope = options.seed === undefined ? id : (options.task ?? '');
    this.clock = new SessionClock(options.clock === undefined ? DEFAULT_CLOCK : ClockOptions.parse(options.clock));
    this.lastUsedMs = nowMs;
  }

  /** This session's view of a domain database (or of an attached one), created on first use. */
  domain(name: string): DomainState {
    const state = this.view(name);
    if (!state) throw new RangeError(`unknown domain ${name}`);
    return state;
  }

  private view(name: string): DomainState | undefined {
    return this.states.get(name) ?? this.find(name);
  }

  /** A view not made yet, or an attached database's (made again when its name was declared anew); undefined for an unknown name. */
  private find(name: string): DomainState | undefined {
    const base = this.bases.get(name);
    if (base) {
      const state = new DomainState(base);
      this.states.set(name, state);
      return state;
    }
    const attached = this.attached?.get(name);
    if (!attached) return undefined;
    let state = this.attachedStates.get(name);
    if (state?.base !== attached) {
      state = new DomainState(attached);
      this.attachedStates.set(name, state);
    }
    return state;
  }

  /** The built-in domains (what a task is scored on). */
  domainNames(): string[] {
    return [...this.bases.keys()];
  }

  /** Every database the session shows: the domains', then the attached ones (mocks'). */
  databaseNames(): string[] {
    return [...this.bases.keys(), ...(this.attached?.names() ?? [])];
  }

  /** The records each database changed since the session started, by name. */
  diff(): Record<string, RecordDiff[]> {
    return Object.fromEntries(this.databaseNames().map((name) => [name, this.domain(name).diff()]));
  }

  /** The writes the session's task asks for in a domain (none without a task). */
  requestedWrites(domain: string): readonly ExpectedWrite[] {
    return this.instance?.domain.name === domain ? this.instance.scored.writes : [];
  }

  /** Calls of a tool so far in this session. */
  callCount(domain: string, tool: string): number {
    return this.calls.get(`${domain}/${tool}`) ?? 0;
  }

  /** Counts a call of a tool and returns its number (1 for the first). */
  countCall(domain: string, tool: string): number {
    const key = `${domain}/${tool}`;
    const n = (this.calls.get(key) ?? 0) + 1;
    this.calls.set(key, n);
    return n;
  }

  get nextSeq(): number {
    return this.seq + 1;
  }

  /**
   * Appends a call to the journal (`bytes`: its size as JSON) and counts its retryable faults.
   * The count lives here, not in the journal, so that dropping old entries never changes the
   * hazard schedule.
   */
  record(entry: JournalEntry, bytes: number): void {
    this.seq = entry.seq;
    this.journal.append(entry, bytes);
    if (entry.idempotency) this.idempotency.remember(entry);
    if (entry.hazards.length > 0) for (const kind of new Set(entry.hazards.map((event) => event.kind))) this.hits.set(kind, (this.hits.get(kind) ?? 0) + 1);
    const faulted = entry.hazards.length > 0 && entry.hazards.some((event) => event.retryable);
    if (!faulted && this.streaks.size === 0) return;
    const key = `${entry.domain}/${entry.tool}`;
    if (faulted) this.streaks.set(key, (this.streaks.get(key) ?? 0) + 1);
    else this.streaks.delete(key);
  }

  /** How many of this tool's latest calls in a row a retryable fault hit. */
  faultStreak(domain: string, tool: string): number {
    return this.streaks.get(`${domain}/${tool}`) ?? 0;
  }

  /** Whether the journal keeps this very entry (not one a reset or a reload replaced). */
  holds(entry: JournalEntry): boolean {
    return this.journal.get(entry.seq) === entry;
  }

  /** Journal entries with a sequence number above `seq`. */
  journalSince(seq: number): JournalEntry[] {
    return this.journal.since(seq);
  }

  /** Re-applies a call recorded earlier (restoring from disk): journal, changes, counters, clock. */
  replay(entry: JournalEntry, bytes: number): void {
    this.record(entry, bytes);
    // Changes to a database no longer declared (a mock removed from the config) have nowhere to go.
    if (entry.changes.length > 0) this.view(entry.domain)?.apply(entry.changes);
    // A call of a tool that does not exist (call 0) has no counter.
    if (entry.call > 0) this.countCall(entry.domain, entry.tool);
    this.clock.tick();
  }

  /** Everything needed to rebuild this session exactly, as plain data. */
  save(): SavedSession {
    return {
      seq: this.seq,
      ticks: this.clock.ticksSoFar,
      calls: Object.fromEntries(this.calls),
      streaks: Object.fromEntries(this.streaks),
      hits: Object.fromEntries(this.hits),
      idempotency: this.idempotency.save(),
      changes: Object.fromEntries([...this.states, ...this.attachedStates].map(([name, state]) => [name, state.changesSnapshot()])),
      journal: this.journal.held(),
      ...(this.answers.length > 0 ? { answers: [...this.answers] } : {}),
    };
  }

  load(saved: SavedSession): void {
    this.reset();
    this.seq = saved.seq;
    this.clock.restore(saved.ticks);
    for (const [key, n] of Object.entries(saved.calls)) this.calls.set(key, n);
    for (const [key, n] of Object.entries(saved.streaks ?? {})) this.streaks.set(key, n);
    for (const [kind, n] of Object.entries(saved.hits ?? {})) this.hits.set(kind, n);
    this.idempotency.load(saved.idempotency ?? [], this.clock.now().getTime());
    for (const [name, changes] of Object.entries(saved.changes)) this.view(name)?.apply(changes);
    for (const entry of saved.journal) this.journal.append(entry, typeof entry === 'string' ? entry.length : entryBytes(entry));
    // A snapshot from before answers were typed holds their text.
    this.answers.push(...(saved.answers ?? []).map((answer) => (typeof answer === 'string' ? { text: answer } : answer)));
  }

  /** Back to the start: the base databases, an empty journal, the clock at its start. */
  reset(): void {
    this.generation += 1;
    for (const state of this.states.values()) state.reset();
    this.attachedStates.clear();
    this.journal.clear();
    this.seq = 0;
    this.calls.clear();
    this.streaks.clear();
    this.hits.clear();
    this.idempotency.clear();
    this.clock.restore(0);
    this.answers.length = 0;
  }

  summary() {
    return {
      id: this.id,
      // As given when created with one (a number stays a number), else the server's default (HAZARD_SEED).
      seed: this.options.seed ?? this.seed,
      clock: { ...this.clock.options, now: this.clock.now().toISOString() },
      calls: this.seq,
      journal: { entries: this.journal.length, dropped: this.seq - this.journal.length, bytes: this.journal.bytes },
      hazard_hits: Object.fromEntries([...this.hits].sort(([a], [b]) => a.localeCompare(b))),
      changed_domains: [...this.states, ...this.attachedStates].filter(([, s]) => s.changed).map(([name]) => name),
      ...(this.options.task === undefined ? {} : { task: this.options.task, answers: this.answers.length }),
    };
  }
}
