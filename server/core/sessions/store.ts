import type { CompatMode } from '../../../domains/tool.js';
import type { AttachedDatabases } from '../data/attached.js';
import type { BaseDatabase } from '../data/base.js';
import { randomUUID } from 'node:crypto';
import { ProblemError, problem, problemError } from '../problem.js';
import { JournalBudget, type JournalEntry } from './journal.js';
import type { SessionOwnership } from './ownership.js';
import { SESSION_ID, Session, type SessionOptions } from './session.js';
import type { SubmittedAnswer } from '../../../scoring/score.js';
import type { TaskInstance } from '../tasks/instance.js';

export const DEFAULT_SESSION = 'default';

/**
 * Takes a change back from memory when its log record could not be written, so that what a session holds
 * always equals what its journal and the disk say. Undos run newest first, before anyone waiting is told.
 */
export type Undo = (error: Error) => void;

/** What the store tells a persistence layer; every method must return quickly. */
export interface SessionObserver {
  created(session: Session, undo: Undo): void;
  /** `undo` is given for a call that changed records. */
  called(session: Session, entry: JournalEntry, undo?: Undo): void;
  answered(session: Session, answer: SubmittedAnswer, undo: Undo): void;
  reset(session: Session, undo: Undo): void;
  deleted(id: string, undo: Undo): void;
  /** Resolves when every change told so far is durable (rejects if it could not be made so). */
  settled(): Promise<void> | undefined;
  /** True while the log cannot be written: reads are answered without waiting for it. */
  readonly failing?: boolean;
  /** Why, while it is failing. */
  readonly failure?: string;
}

/** A session whose saved data is damaged: where, and what is wrong. */
export interface DamagedSession {
  session?: string;
  where: string;
  problem: string;
}

/** Sessions saved in DATA_DIR and read back on first use (SavedSessions). */
export interface SessionLoader {
  /** Whether a session of this id is saved and not read back yet. */
  has(id: string): boolean;
  /** Reads it back into the store (SessionStore.restore); throws a 503 problem when its data is damaged. */
  load(id: string): void;
  /** Saved sessions not read back yet. */
  readonly unloaded: number;
  /** Reads back every saved session its data allows. */
  loadAll(): void;
  /** Sessions set aside when their data was read back (DATA_RECOVER=quarantine). */
  readonly quarantined: readonly DamagedSession[];
  /** Sessions whose data is damaged, held back until it is repaired (DATA_RECOVER=stop, found after start). */
  readonly damaged: readonly DamagedSession[];
}

export interface SessionStoreOptions {
  bases: ReadonlyMap<string, BaseDatabase>;
  /** Databases beside the domains' (mocks' records) that sessions hold too. */
  attached?: AttachedDatabases;
  /** Idle time after which a session expires. */
  ttlMs: number;
  /** Most sessions at once, not counting `default`. */
  maxSessions: number;
  defaultSeed: string;
  /** The compatibility mode every session's tools run in (TAU2_COMPAT); `off` when absent. */
  compat?: CompatMode;
  /** Most journal entries kept per session (the oldest are dropped); unlimited when absent. */
  journalLimit?: number;
  /** Bytes (as JSON) the journals of all sessions may hold; the oldest entries of idle sessions go first. */
  journalMemory?: number;
  /** Behind a load balancer hashing session ids: which ids this replica holds (CLUSTER_PEERS). */
  ownership?: SessionOwnership;
  /** Monotonic milliseconds; tests pass their own to expire sessions without waiting. */
  now?: () => number;
  /** The task instance of a session's options (a task session restored from disk); undefined for a session without a task. */
  instanceOf?: (options: SessionOptions) => TaskInstance | undefined;
}

/** All live sessions: explicit, implicit (first use of an id) and `default`. */
export class SessionStore {
  private readonly sessions = new Map<string, Session>();
  private readonly now: () => number;
  readonly journalBudget: JournalBudget;
  observer: SessionObserver | undefined;
  /** Sessions in DATA_DIR not read back yet. */
  loader: SessionLoader | undefined;

  constructor(private readonly options: SessionStoreOptions) {
    this.now = options.now ?? (() => performance.now());
    this.journalBudget = new JournalBudget(options.journalMemory ?? Infinity);
    this.sessions.set(DEFAULT_SESSION, this.build(DEFAULT_SESSION, {}));
  }

  /** Sessions held, saved ones not read back yet included (`default` is not counted). */
  get size(): number {
    return this.sessions.size - 1 + (this.loader?.unloaded ?? 0);
  }

  /** Saved sessions not read back yet. */
  get unloaded(): number {
    return this.loader?.unloaded ?? 0;
  }

  /** The compatibility mode sessions' tools run in (TAU2_COMPAT). */
  get compat(): CompatMode {
    return this.options.compat ?? 'off';
  }

  get maxSessions(): number {
    return this.options.maxSessions;
  }

  /** A new id (made by `make`, a UUID by default) that routes to this replica when there are several. */
  newId(make: () => string = randomUUID): string {
    return this.options.ownership ? this.options.ownership.newId(make) : make();
  }

  /** A new session; with a task, `instance` is its instance (TaskBook.instance). */
  create(options: SessionOptions, instance?: TaskInstance): Session {
    const id = options.id ?? this.newId();
    checkId(id);
    if (this.get(id)) throw problemError(409, 'session_exists', `Session '${id}' already exists; DELETE /sessions/${id} first or choose another id.`);
    this.options.ownership?.check(id);
    return this.add(this.build(id, options, instance));
  }

  /** The task instance a session with these options runs (restoring one from disk). */
  instanceOf(options: SessionOptions): TaskInstance | undefined {
    return options.task === undefined ? undefined : this.options.instanceOf?.(options);
  }

  /** The session with this id, created on first use. */
  resolve(id: string): Session {
    const session = this.get(id);
    if (session) {
      session.lastUsedMs = this.now();
      return session;
    }
    this.checkNew(id);
    return this.add(this.build(id, {}));
  }

  /** The session with this id, read back from DATA_DIR on first use; undefined when there is none. */
  get(id: string): Session | undefined {
    const session = this.sessions.get(id);
    if (session || !this.loader?.has(id)) return session;
    this.loader.load(id);
    return this.sessions.get(id);
  }

  /** The session with this id if it is in memory (persistence: what it holds, without reading anything back). */
  peek(id: string): Session | undefined {
    return this.sessions.get(id);
  }

  /**
   * The session with this id as a read sees it, without creating it: a live session, or a fresh
   * one (not kept) showing what the session would be on first use.
   */
  view(id: string): Session {
    const session = this.get(id);
    if (session) return session;
    this.checkNew(id);
    return this.build(id, {});
  }

  /** Milliseconds since the session last had a call, an answer or a reset. */
  idleMs(session: Session): number {
    return this.now() - session.lastUsedMs;
  }

  require(id: string): Session {
    const session = this.get(id);
    if (!session) this.options.ownership?.check(id);
    if (!session) throw problemError(404, 'session_not_found', `No session '${id}'. Create it with POST /sessions or by calling a tool under /s/${id}/.`);
    return session;
  }

  list(): Session[] {
    this.loader?.loadAll();
    return [...this.sessions.values()];
  }

  reset(id: string): Session {
    const session = this.require(id);
    const before = this.observer ? session.save() : undefined;
    session.reset();
    session.lastUsedMs = this.now();
    this.observer?.reset(session, () => session.load(before!));
    return session;
  }

  delete(id: string): void {
    this.require(id);
    if (id === DEFAULT_SESSION) {
      this.reset(id);
      return;
    }
    this.discard(id);
  }

  /** Expires sessions idle for longer than the TTL; returns how many. */
  sweep(): number {
    const cutoff = this.now() - this.options.ttlMs;
    let expired = 0;
    for (const [id, session] of this.sessions) {
      if (id !== DEFAULT_SESSION && session.lastUsedMs <= cutoff) {
        this.discard(id);
        expired++;
      }
    }
    return expired;
  }

  /** Resolves when every change so far is durable; undefined when nothing is pending. */
  persisted(): Promise<void> | undefined {
    return this.observer?.settled();
  }

  /** True while changes cannot be made durable (the log's last write failed). */
  get persistenceFailing(): boolean {
    return this.observer?.failing === true;
  }

  /** Sessions set aside when DATA_DIR was read back, and why. */
  get quarantined(): readonly DamagedSession[] {
    return this.loader?.quarantined ?? [];
  }

  /** Sessions whose saved data is damaged, held back (503) until DATA_DIR is repaired. */
  get damaged(): readonly DamagedSession[] {
    return this.loader?.damaged ?? [];
  }

  /** The error that keeps changes from being made durable, while it does. */
  get persistenceFailure(): string | undefined {
    return this.persistenceFailing ? (this.observer?.failure ?? 'the log cannot be written') : undefined;
  }

  /** Waits until every change so far is durable; a 503 problem when it could not be made so. */
  async durable(): Promise<void> {
    try {
      await this.persisted();
    } catch (error) {
      throw notPersisted(error);
    }
  }

  /**
   * Journals a call (`bytes`: its size as JSON), within the shared journal budget. `undo` takes back what
   * a write changed, should its record not be written.
   */
  recordCall(session: Session, entry: JournalEntry, bytes: number, undo?: Undo): void {
    session.record(entry, bytes);
    session.lastUsedMs = this.now();
    if (this.journalBudget.exceeded) this.reclaimJournals(session);
    this.observer?.called(session, entry, undo);
  }

  /** Records the agent's final answer to the next turn of the session's task. */
  recordAnswer(session: Session, answer: SubmittedAnswer): void {
    session.answers.push(answer);
    session.lastUsedMs = this.now();
    this.observer?.answered(session, answer, () => {
      const at = session.answers.lastIndexOf(answer);
      if (at >= 0) session.answers.splice(at, 1);
    });
  }

  /**
   * Brings the journals back under 90 % of their budget: the oldest entries of the sessions idle
   * the longest go first; the session being served keeps at least its newest entry.
   */
  private reclaimJournals(current: Session): void {
    const budget = this.journalBudget;
    const target = budget.limit * 0.9;
    const idleFirst = [...this.sessions.values()].filter((s) => s !== current && s.journal.length > 0).sort((a, b) => a.lastUsedMs - b.lastUsedMs);
    for (const session of idleFirst) {
      if (budget.used <= target) return;
      session.journal.free(budget.used - target);
    }
    if (budget.used > target) current.journal.free(budget.used - target, 1);
  }

  /** An id a session is about to be created under (or shown as if it were): well formed, and this replica's. */
  private checkNew(id: string): void {
    checkId(id);
    this.options.ownership?.check(id);
  }

  /** Adds a session restored from disk, without telling the observer. */
  restore(id: string, options: SessionOptions, instance?: TaskInstance): Session {
    const session = this.build(id, options, instance);
    this.sessions.set(id, session);
    return session;
  }

  /** Removes a session (resets `default`) as a log record being read back says, without telling the observer. */
  forget(id: string): void {
    const session = this.sessions.get(id);
    if (id === DEFAULT_SESSION) session?.reset();
    else if (session) {
      session.journal.clear();
      this.sessions.delete(id);
    }
  }

  private build(id: string, options: SessionOptions, instance?: TaskInstance): Session {
    const journal = { limit: this.options.journalLimit ?? Infinity, budget: this.journalBudget };
    return new Session(
      id,
      { ...options, id },
      this.options.bases,
      this.now(),
      this.options.defaultSeed,
      journal,
      this.options.compat,
      instance,
      this.options.attached,
    );
  }

  /** Removes a session and releases its journal. */
  private discard(id: string): void {
    const session = this.sessions.get(id);
    const saved = this.observer && session ? session.save() : undefined;
    session?.journal.clear();
    this.sessions.delete(id);
    this.observer?.deleted(id, () => {
      if (!session || this.sessions.has(id)) return;
      session.load(saved!);
      this.sessions.set(id, session);
    });
  }

  private add(session: Session): Session {
    if (this.size >= this.options.maxSessions) {
      this.sweep();
      if (this.size >= this.options.maxSessions) {
        const retryAfter = Math.max(1, Math.ceil(this.secondsUntilNextExpiry()));
        throw sessionLimit(this.options.maxSessions, retryAfter);
      }
    }
    this.sessions.set(session.id, session);
    this.observer?.created(session, () => {
      if (this.sessions.get(session.id) !== session) return;
      session.journal.clear();
      this.sessions.delete(session.id);
    });
    return session;
  }

  private secondsUntilNextExpiry(): number {
    let oldest = Infinity;
    for (const [id, session] of this.sessions) if (id !== DEFAULT_SESSION) oldest = Math.min(oldest, session.lastUsedMs);
    return (oldest + this.options.ttlMs - this.now()) / 1000;
  }
}

export const PERSISTENCE_FAILED = 'persistence_failed';

/** The change's log record could not be written: it was taken back, and is not acknowledged. */
export function notPersisted(error: unknown): ProblemError {
  const detail =
    `The change could not be written to DATA_DIR (${(error as Error).message}), so it was not made: ` +
    'nothing of it is kept, in memory or on disk. Check the disk, then retry.';
  return new ProblemError(problem(503, PERSISTENCE_FAILED, detail));
}

function checkId(id: string): void {
  if (!SESSION_ID.test(id)) {
    throw problemError(400, 'invalid_session_id', `Invalid session id '${id.slice(0, 80)}': use letters, digits, '.', '_' or '-' (at most 64).`);
  }
}

function sessionLimit(max: number, retryAfter: number): ProblemError {
  const detail =
    `The server holds its maximum of ${max} sessions. Delete finished sessions (DELETE /sessions/{id}) ` +
    `or retry after ${retryAfter} s, when the oldest idle one expires.`;
  return new ProblemError(problem(503, 'session_limit', detail, { max_sessions: max }), { 'retry-after': String(retryAfter) });
}
