import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { syncFolder, writeAt, writeFileAtomic } from './atomic-file.js';
import type { HeldEntry, JournalEntry } from './journal.js';
import { type Durability, LogFile } from './log-file.js';
import { makeFolder } from './make-folder.js';
import { DATA_FORMAT, formatOf, writeFormat } from './data-format.js';
import { frame } from './framing.js';
import { type JournalFile, journalFilePath, type Logger, type LogRecord, PersistenceError, SavedSessions, walPath } from './saved-sessions.js';
import type { Session } from './session.js';
import { encodeJournalLines, encodeSnapshotHead } from './snapshot-file.js';
import type { SessionObserver, SessionStore, Undo } from './store.js';
import type { SubmittedAnswer } from '../../../scoring/score.js';

export { PersistenceError } from './saved-sessions.js';

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
  /** Each session's journal file as on disk. */
  private readonly journalFiles = new Map<string, JournalFile>();
  /** The JSON of entries logged since the last checkpoint, by session: their journal lines, not made twice. */
  private readonly entryTexts = new Map<string, Map<JournalEntry, string>>();
  /** Sessions whose journal started again (new, reset, deleted): their next journal file is a new generation. */
  private readonly journalRestarted = new Set<string>();
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
      const saved = new SavedSessions({ dir: this.options.dir, legacy: format === 1, recover, log: this.log }, this.store, (id, version, replayed, journal) => {
        this.versions.set(id, version);
        if (journal) this.journalFiles.set(id, journal);
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
        `DATA_DIR ${this.options.dir}: its data (format 1) could not be migrated to format ${DATA_FORMAT} (${(error as Error).message}); free some space and ` +
          `start again`,
      );
    }
    this.log.info(`DATA_DIR ${this.options.dir}: migrated from format 1 to format ${DATA_FORMAT} (checksummed records and snapshots)`);
  }

  created(session: Session, undo: Undo): void {
    this.journalRestarted.add(session.id);
    this.append({ t: 'create', s: session.id, v: 0, n: 0, options: session.options }, undo);
  }

  called(session: Session, entry: JournalEntry, undo?: Undo): void {
    this.logCall(session, entry, undo);
  }

  answered(session: Session, answer: SubmittedAnswer, undo: Undo): void {
    this.append({ t: 'answer', s: session.id, v: 0, n: 0, answer }, undo);
  }

  reset(session: Session, undo: Undo): void {
    this.journalRestarted.add(session.id);
    this.entryTexts.delete(session.id);
    this.append({ t: 'reset', s: session.id, v: 0, n: 0 }, undo);
  }

  deleted(id: string, undo: Undo): void {
    this.journalRestarted.add(id);
    this.entryTexts.delete(id);
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

  /**
   * Logs a call. The entry's JSON is made once: the record carries it, and it is kept until the next
   * checkpoint appends it to the session's journal file (a re-logged entry replaces its text).
   */
  private logCall(session: Session, entry: JournalEntry, undo?: Undo): void {
    const text = JSON.stringify(entry);
    const texts = this.entryTexts.get(session.id) ?? new Map<JournalEntry, string>();
    this.entryTexts.set(session.id, texts);
    texts.set(entry, text);
    // While checkpoints fail, the texts of entries the journal dropped must not pile up.
    if (texts.size > 2 * session.journal.length + 64) for (const kept of texts.keys()) if (!session.holds(kept)) texts.delete(kept);
    this.append({ t: 'call', s: session.id, v: 0, n: 0, entry }, undo, `"entry":${text}`);
  }

  /** Appends a record (`body`: its members after `n`, as JSON, when already made). */
  private append(record: LogRecord, undo?: Undo, body?: string): void {
    const version = (this.versions.get(record.s) ?? 0) + 1;
    this.versions.set(record.s, version);
    record.v = version;
    record.n = this.nextN++;
    this.dirty.add(record.s);
    const line = frame(
      body === undefined ? JSON.stringify(record) : `{"t":"${record.t}","s":${JSON.stringify(record.s)},"v":${record.v},"n":${record.n},${body}}`,
    );
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
      const session = this.store.peek(record.s);
      if (session?.holds(record.entry)) this.logCall(session, record.entry);
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

  /**
   * Writes a session's snapshot: its journal's new entries appended to its journal file (or the file
   * written whole, as a new generation, after a reset or once it holds twice what the journal keeps),
   * then its one-line head, which counts the file's bytes, atomically. A deleted session's files go.
   */
  private async writeSnapshot(id: string): Promise<void> {
    const session = this.store.peek(id);
    const file = this.journalFiles.get(id);
    const texts = this.entryTexts.get(id);
    this.entryTexts.delete(id);
    if (!session) {
      if (this.saved?.has(id)) return;
      await unlink(this.snapshotPath(id)).catch(() => undefined);
      if (file) await unlink(journalFilePath(this.options.dir, id, file.generation)).catch(() => undefined);
      this.journalFiles.delete(id);
      return;
    }
    const { journal: held, ...state } = session.save();
    const textOf = (entry: HeldEntry) => (typeof entry === 'string' ? entry : texts?.get(entry));
    const restarted = this.journalRestarted.delete(id) || !file;
    // The entries past the file's newest: parsed ones (entries read back from disk are text, and in it).
    let first = held.length;
    while (!restarted && first > 0 && typeof held[first - 1] !== 'string' && (held[first - 1] as JournalEntry).seq > file.to) first--;
    const whole = restarted || file.lines + held.length - first > 2 * held.length + 1024;
    const lines = whole ? held : held.slice(first);
    const text = encodeJournalLines(lines, textOf);
    const next: JournalFile = whole
      ? { generation: (file?.generation ?? 0) + 1, bytes: Buffer.byteLength(text), lines: held.length, to: seqOf(held.at(-1)) }
      : { ...file!, bytes: file!.bytes + Buffer.byteLength(text), lines: file!.lines + lines.length, to: lines.length > 0 ? seqOf(lines.at(-1)) : file!.to };
    const journalPath = journalFilePath(this.options.dir, id, next.generation);
    const head = encodeSnapshotHead({ id, version: this.versions.get(id) ?? 0, options: session.options, ...state, journal: { ...next, count: held.length } });
    try {
      if (whole) await writeFileAtomic(journalPath, text, this.fsync);
      else if (text !== '') await writeAt(journalPath, file!.bytes, text, this.fsync);
      await writeFileAtomic(this.snapshotPath(id), head, this.fsync);
    } catch (error) {
      // Tried again at the next checkpoint, from the file as it was.
      if (restarted && file) this.journalRestarted.add(id);
      throw error;
    }
    this.snapshotBytes += head.length + text.length;
    this.journalFiles.set(id, next);
    if (whole && file) await unlink(journalFilePath(this.options.dir, id, file.generation)).catch(() => undefined);
  }

  private snapshotPath(id: string): string {
    return join(this.snapshotDir, `${id}.json`);
  }
}

/** The sequence number of a journal entry as held (text is parsed: only the newest entry is asked for). */
function seqOf(entry: HeldEntry | undefined): number {
  if (entry === undefined) return 0;
  return typeof entry === 'string' ? (JSON.parse(entry) as JournalEntry).seq : entry.seq;
}
