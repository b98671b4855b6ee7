import { randomUUID } from 'node:crypto';
import type { BaseDatabase } from '../data/base.js';
import { ProblemError, problem, problemError } from '../problem.js';
import type { JournalEntry } from './journal.js';
import { SESSION_ID, Session, type SessionOptions } from './session.js';

export const DEFAULT_SESSION = 'default';

/** What the store tells a persistence layer; every method must return quickly. */
export interface SessionObserver {
  created(session: Session): void;
  called(session: Session, entry: JournalEntry): void;
  reset(session: Session): void;
  deleted(id: string): void;
}

export interface SessionStoreOptions {
  bases: ReadonlyMap<string, BaseDatabase>;
  /** Idle time after which a session expires. */
  ttlMs: number;
  /** Most sessions at once, not counting `default`. */
  maxSessions: number;
  defaultSeed: string;
  /** Most journal entries kept per session (the oldest are dropped); unlimited when absent. */
  journalLimit?: number;
  /** Monotonic milliseconds; tests pass their own to expire sessions without waiting. */
  now?: () => number;
}

/** All live sessions: explicit, implicit (first use of an id) and `default`. */
export class SessionStore {
  private readonly sessions = new Map<string, Session>();
  private readonly now: () => number;
  observer: SessionObserver | undefined;

  constructor(private readonly options: SessionStoreOptions) {
    this.now = options.now ?? (() => performance.now());
    this.sessions.set(DEFAULT_SESSION, this.build(DEFAULT_SESSION, {}));
  }

  get size(): number {
    return this.sessions.size - 1;
  }

  create(options: SessionOptions): Session {
    const id = options.id ?? randomUUID();
    if (this.sessions.has(id)) throw problemError(409, 'session_exists', `Session '${id}' already exists; DELETE /sessions/${id} first or choose another id.`);
    return this.add(this.build(id, options));
  }

  /** The session with this id, created on first use. */
  resolve(id: string): Session {
    const session = this.sessions.get(id);
    if (session) {
      session.lastUsedMs = this.now();
      return session;
    }
    if (!SESSION_ID.test(id)) {
      throw problemError(400, 'invalid_session_id', `Invalid session id '${id.slice(0, 80)}': use letters, digits, '.', '_' or '-' (at most 64).`);
    }
    return this.add(this.build(id, {}));
  }

  get(id: string): Session | undefined {
    return this.sessions.get(id);
  }

  require(id: string): Session {
    const session = this.sessions.get(id);
    if (!session) throw problemError(404, 'session_not_found', `No session '${id}'. Create it with POST /sessions or by calling a tool under /s/${id}/.`);
    return session;
  }

  list(): Session[] {
    return [...this.sessions.values()];
  }

  reset(id: string): Session {
    const session = this.require(id);
    session.reset();
    session.lastUsedMs = this.now();
    this.observer?.reset(session);
    return session;
  }

  delete(id: string): void {
    this.require(id);
    if (id === DEFAULT_SESSION) {
      this.reset(id);
      return;
    }
    this.sessions.delete(id);
    this.observer?.deleted(id);
  }

  /** Expires sessions idle for longer than the TTL; returns how many. */
  sweep(): number {
    const cutoff = this.now() - this.options.ttlMs;
    let expired = 0;
    for (const [id, session] of this.sessions) {
      if (id !== DEFAULT_SESSION && session.lastUsedMs <= cutoff) {
        this.sessions.delete(id);
        this.observer?.deleted(id);
        expired++;
      }
    }
    return expired;
  }

  recordCall(session: Session, entry: JournalEntry): void {
    session.record(entry);
    session.lastUsedMs = this.now();
    this.observer?.called(session, entry);
  }

  /** Adds a session restored from disk, without telling the observer. */
  restore(id: string, options: SessionOptions): Session {
    const session = this.build(id, options);
    this.sessions.set(id, session);
    return session;
  }

  private build(id: string, options: SessionOptions): Session {
    return new Session(id, { ...options, id }, this.options.bases, this.now(), this.options.defaultSeed, this.options.journalLimit);
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
    this.observer?.created(session);
    return session;
  }

  private secondsUntilNextExpiry(): number {
    let oldest = Infinity;
    for (const [id, session] of this.sessions) if (id !== DEFAULT_SESSION) oldest = Math.min(oldest, session.lastUsedMs);
    return (oldest + this.options.ttlMs - this.now()) / 1000;
  }
}

function sessionLimit(max: number, retryAfter: number): ProblemError {
  const detail =
    `The server holds its maximum of ${max} sessions. Delete finished sessions (DELETE /sessions/{id}) ` +
    `or retry after ${retryAfter} s, when the oldest idle one expires.`;
  return new ProblemError(problem(503, 'session_limit', detail, { max_sessions: max }), { 'retry-after': String(retryAfter) });
}
