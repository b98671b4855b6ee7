import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { syncFolder, writeFileAtomic } from './atomic-file.js';
import type { JournalEntry } from './journal.js';
import { type Durability, LogFile } from './log-file.js';
import { makeFolder } from './make-folder.js';
import { DATA_FORMAT, formatOf, writeFormat } from './data-format.js';
import { frame } from './framing.js';
import { type Logger, type LogRecord, PersistenceError, SavedSessions, walPath } from './saved-sessions.js';
import type { Session } from './session.js';
import { encodeSnapshot, type Snapshot } from './snapshot-file.js';
import type { SessionObserver, SessionStore, Undo } from './store.js';
import type { SubmittedAnswer } from '../../scoring/score.js';

export { PersistenceError, type Quarantined } from './saved-sessions.js';

/** A record on its way to the log, with what takes its change back should it not get there. */
interface Pending {
  record: LogRecord;
  undo?: Undo;
}

export interface PersistenceOptions {
  dir: string;
  /** How often the log's size is checked against the checkpoint threshold. */
  intervalMs: number;
  /**
   * A checkpoint runs once the log holds this many bytes and at least as many as the last checkpoint
   * wrote (default 16 MiB): snapshot writing then costs at most as much as the log did, and a restart
   * replays a bounded log.
   */
  checkpointBytes?: number;
  /** `process` (default): a write is acknowledged once handed to the OS; `fsync`: once on the disk. */
  durability?: Durability;
  /** On damaged data: `stop` (default) the start, naming it, or `quarantine` the sessions concerned (DATA_RECOVER). */
  recover?: 'stop' | 'quarantine';
}

const DEFAULT_CHECKPOINT_BYTES = 16 * 1024 * 1024;

/**
 * Sessions that survive a restart, without rewriting a whole file per call: every change is
 * appended as one line to a write-ahead log, with group commit (see LogFile), and a change is
 * acknowledged only once its record is durable. Once the log has grown enough, the sessions changed
 * since the last checkpoint are written as snapshots (atomically) and the logs they cover are
 * removed. A restart reads an index of what DATA_DIR holds and serves at once; each session is read
 * back (its snapshot, then what the logs hold beyond it) on first use, or in the background (SavedSessions).
 */
export class SessionPersistence implements SessionObserver {
  private wal: LogFile<Pending> | undefined;
  private walNumber = 0;
  /** Closed logs whose records are not all in snapshots yet. */
  private retired: number[] = [];
  private readonly versions = new Map<string, number>();
  /** The number of the next log record. */
  private nextN = 1;
  private saved: SavedSessions | undefined;
  private readonly dirty = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  /** Bytes appended to the logs since the last checkpoint began. */
  private logBytes = 0;
  /** Bytes of snapshots the last checkpoint wrote. */
  private snapshotBytes = 0;
  private checkpointing: Promise<void> | undefined;

  constructor(
    private readonly options: PersistenceOptions,
    private readonly store: SessionStore,
    private readonly log: Logger,
  ) {}

  private get durability(): Durability {
    return this.options.durability ?? 'process';
  }

  private get fsync(): boolean {
    return this.durability === 'fsync';
  }

  private get snapshotDir(): string {
    return join(this.options.dir, 'sessions');
  }

  /**
   * Reads the index of the saved sessions (the logs checked whole, the snapshots by name), then starts
   * logging; the sessions are read back on first use or in the background. The number of saved sessions.
   */
  async open(): Promise<number> {
    const saved = await this.unlessUnusable(async () => {
      await makeFolder(this.snapshotDir);
      const format = await formatOf(this.options.dir);
      if (format < 1 || format > DATA_FORMAT || !Number.isInteger(format)) {
        throw new PersistenceError(
          `DATA_DIR ${this.options.dir} holds data of format ${format}; this version reads formats 1 (and migrates it) to ${DATA_FORMAT}`,
        );
      }
      const recover = this.options.recover ?? 'stop';
      const saved = new SavedSessions({ dir: this.options.dir, legacy: format === 1, recover, log: this.log }, this.store, (id, version, replayed) => {
        this.versions.set(id, version);
        if (replayed) this.dirty.add(id);
      });
      await saved.scan();
      this.saved = saved;
      this.walNumber = saved.lastLog;
      this.retired = [...saved.logs];
      this.nextN = saved.nextN;
      saved.openForServing();
      if (format === 1) await this.migrate();
      await writeFormat(this.options.dir, this.fsync);
      return saved;
    });
    this.store.loader = saved;
    this.store.observer = this;
    this.wal = await this.unlessUnusable(async () => this.logFile());
    this.timer = setInterval(() => {
      if (this.checkpointDue) void this.checkpoint();
    }, this.options.intervalMs);
    this.timer.unref();
    // Once the sessions with records in the logs read at start are back, a checkpoint folds them and removes those logs.
    saved.loadInBackground(() => {
      if (this.retired.length > 0) void this.checkpoint();
    });
    return this.store.size;
  }

  /** Format 1 (no checksums), read back whole at start: every session written again, the logs removed. */
  private async migrate(): Promise<void> {
    try {
      for (const session of this.store.list()) await this.writeSnapshot(session.id);
      if (this.fsync) await syncFolder(this.snapshotDir);
      for (const number of this.retired) await unlink(walPath(this.options.dir, number));
      this.retired = [];
      this.dirty.clear();
    } catch (error) {
      throw new PersistenceError(
        `DATA_DIR ${this.options.dir}: its data (format 1) could not be migrated to format ${DATA_FORMAT} (${(error as Error).message}); free some space and start again`,
      );
    }
    this.log.info(`DATA_DIR ${this.options.dir}: migrated from format 1 to format ${DATA_FORMAT} (checksummed records and snapshots)`);
  }

  created(session: Session, undo: Undo): void {
    this.append({ t: 'create', s: session.id, v: 0, n: 0, options: session.options }, undo);
  }

  called(session: Session, entry: JournalEntry, undo?: Undo): void {
    this.append({ t: 'call', s: session.id, v: 0, n: 0, entry }, undo);
  }

  answered(session: Session, answer: SubmittedAnswer, undo: Undo): void {
    this.append({ t: 'answer', s: session.id, v: 0, n: 0, answer }, undo);
  }

  reset(session: Session, undo: Undo): void {
    this.append({ t: 'reset', s: session.id, v: 0, n: 0 }, undo);
  }

  deleted(id: string, undo: Undo): void {
    this.append({ t: 'delete', s: id, v: 0, n: 0 }, undo);
  }

  settled(): Promise<void> | undefined {
    return this.wal?.settled();
  }

  get failing(): boolean {
    return this.wal?.failing === true;
  }

  /** The error of the log's last failed write while it is failing (/health). */
  get failure(): string | undefined {
    return this.failing ? this.lastFailure : undefined;
  }

  private lastFailure: string | undefined;

  /**
   * True once the log holds the threshold and at least what the last checkpoint wrote, up to four times
   * the threshold: the logs a restart must read whole stay bounded however large the snapshots are.
   */
  get checkpointDue(): boolean {
    const threshold = this.options.checkpointBytes ?? DEFAULT_CHECKPOINT_BYTES;
    return this.logBytes >= Math.max(threshold, Math.min(this.snapshotBytes, 4 * threshold));
  }

  /** Writes the snapshots of changed sessions and drops the logs they cover. */
  checkpoint(): Promise<void> {
    this.checkpointing ??= this.writeCheckpoint().finally(() => {
      this.checkpointing = undefined;
    });
    return this.checkpointing;
  }

  /** Final checkpoint: every session in a snapshot, no log left (unless a damaged session's records are in one). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.saved?.stop();
    await this.checkpointing;
    // Sessions with records in the logs read at start are read back, so that those logs can go.
    this.saved?.loadAll(true);
    this.store.observer = undefined;
    await this.writeCheckpoint(true);
  }

  /** Runs `work`; a file-system error (DATA_DIR a file, unreadable, not writable) becomes one line naming DATA_DIR. */
  private async unlessUnusable<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof PersistenceError) throw error;
      const { code, message } = error as NodeJS.ErrnoException;
      throw new PersistenceError(`DATA_DIR ${this.options.dir} cannot hold sessions (${code ?? message}): ${message}`);
    }
  }

  private append(record: LogRecord, undo?: Undo): void {
    const version = (this.versions.get(record.s) ?? 0) + 1;
    this.versions.set(record.s, version);
    record.v = version;
    record.n = this.nextN++;
    this.dirty.add(record.s);
    const line = frame(JSON.stringify(record));
    this.logBytes += line.length + 1;
    this.wal?.append(line, { record, undo });
  }

  /** The next log, written only once `after` (the log before it, closing) has settled. */
  private logFile(after?: Promise<unknown>): LogFile<Pending> {
    const log: LogFile<Pending> = new LogFile(
      walPath(this.options.dir, ++this.walNumber),
      this.durability,
      (tags, error) => this.lost(log, tags, error),
      after,
    );
    return log;
  }

  /**
   * Records `log` could not write: their changes are taken back (newest first, the log after it included,
   * since its records may build on them), so that memory equals what is durable. The calls among them
   * stay in their sessions' journals (a write as refused, a read as it was) and are logged again.
   */
  private lost(log: LogFile<Pending>, tags: Pending[], error: Error): void {
    if (!this.failing || this.lastFailure === undefined)
      this.log.error({ err: error }, 'DATA_DIR: a log write failed; changes are refused and taken back until a write succeeds');
    this.lastFailure = error.message;
    const later = log !== this.wal && this.wal ? this.wal.abandon() : undefined;
    const all = later ? [...tags, ...later.tags] : tags;
    // The lost records are the last ones appended: numbering goes on from the first of them.
    if (all.length > 0) this.nextN = all[0]!.record.n!;
    for (let i = all.length - 1; i >= 0; i--) {
      const { record, undo } = all[i]!;
      this.versions.set(record.s, record.v - 1);
      undo?.(error);
    }
    for (const { record } of all) {
      if (record.t !== 'call') continue;
      if (this.store.peek(record.s)?.holds(record.entry)) this.append({ t: 'call', s: record.s, v: 0, n: 0, entry: record.entry });
    }
    later?.reject(error);
  }

  private async writeCheckpoint(final = false): Promise<void> {
    if (!this.wal || (this.dirty.size === 0 && this.retired.length === 0 && !final)) return;
    const previous = this.wal;
    this.retired.push(this.walNumber);
    // The next log first, so that what the closing one loses is logged again there, after it.
    let closed!: () => void;
    this.wal = final ? undefined : this.logFile(new Promise<void>((resolve) => (closed = resolve)));
    const closing = previous.close().finally(() => closed?.());
    const ids = [...this.dirty];
    this.dirty.clear();
    this.logBytes = 0;
    this.snapshotBytes = 0;
    try {
      await closing;
      // Each snapshot is taken when it is written: its state and version match, and log records
      // beyond it (in the new log) are replayed on top.
      for (const id of ids) await this.writeSnapshot(id);
      if (this.fsync) await syncFolder(this.snapshotDir);
      // The logs read at start stay while sessions with records in them are not read back yet.
      if (this.saved?.recordsPending) return;
      for (const number of this.retired) await unlink(walPath(this.options.dir, number)).catch(() => undefined);
      this.retired = [];
      if (this.fsync) await syncFolder(this.options.dir);
    } catch (error) {
      for (const id of ids) this.dirty.add(id);
      this.log.error({ err: error }, 'session checkpoint failed; the logs are kept');
    }
  }

  private async writeSnapshot(id: string): Promise<void> {
    const session = this.store.peek(id);
    if (!session) {
      if (!this.saved?.has(id)) await unlink(this.snapshotPath(id)).catch(() => undefined);
      return;
    }
    const text = encodeSnapshot(this.snapshotOf(session));
    this.snapshotBytes += text.length;
    await writeFileAtomic(this.snapshotPath(id), text, this.fsync);
  }

  private snapshotOf(session: Session): Snapshot {
    return { id: session.id, version: this.versions.get(session.id) ?? 0, options: session.options, ...session.save() };
  }

  private snapshotPath(id: string): string {
    return join(this.snapshotDir, `${id}.json`);
  }
}
