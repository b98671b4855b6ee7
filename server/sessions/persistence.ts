import { readdir, readFile, rename, unlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { syncFolder, writeFileAtomic } from './atomic-file.js';
import type { JournalEntry } from './journal.js';
import { type Durability, LogFile } from './log-file.js';
import { makeFolder } from './make-folder.js';
import { DATA_FORMAT, formatOf, writeFormat } from './data-format.js';
import { frame, unframe } from './framing.js';
import { LogOrder } from './log-order.js';
import type { SavedSession, Session, SessionOptions } from './session.js';
import type { TaskInstance } from '../tasks/instance.js';
import type { SessionObserver, SessionStore, Undo } from './store.js';
import type { SubmittedAnswer } from '../../scoring/score.js';

/** One line of the write-ahead log. `v` counts the records of a session, `n` those of all logs (absent in format 1). */
type LogRecord = (
  | { t: 'create'; s: string; v: number; options: SessionOptions }
  | { t: 'call'; s: string; v: number; entry: JournalEntry }
  /** `text` alone: an answer recorded before answers were typed. */
  | { t: 'answer'; s: string; v: number; answer?: SubmittedAnswer; text?: string }
  | { t: 'reset'; s: string; v: number }
  | { t: 'delete'; s: string; v: number }
) & { n?: number };

/** A session set aside on reading DATA_DIR back (DATA_RECOVER=quarantine), and why. */
export interface Quarantined {
  session?: string;
  /** The file (and line) where the damage was found. */
  where: string;
  problem: string;
}

/** A record on its way to the log, with what takes its change back should it not get there. */
interface Pending {
  record: LogRecord;
  undo?: Undo;
}

/** A session as written at a checkpoint: enough to rebuild it exactly. */
interface Snapshot extends SavedSession {
  id: string;
  version: number;
  options: SessionOptions;
}

interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(details: object, message: string): void;
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

/** DATA_DIR cannot be read back: the message names the file (and line) and what to do. */
export class PersistenceError extends Error {}

/**
 * Sessions that survive a restart, without rewriting a whole file per call: every change is
 * appended as one line to a write-ahead log, with group commit (see LogFile), and a change is
 * acknowledged only once its record is durable. Once the log has grown enough, the sessions changed
 * since the last checkpoint are written as snapshots (atomically) and the logs they cover are
 * removed. A restart reads the snapshots and replays what the logs hold beyond them.
 */
export class SessionPersistence implements SessionObserver {
  private wal: LogFile<Pending> | undefined;
  private walNumber = 0;
  /** Closed logs whose records are not all in snapshots yet. */
  private retired: number[] = [];
  private readonly versions = new Map<string, number>();
  /** The number of the next log record. */
  private nextN = 1;
  private readonly quarantine = new Map<string, Quarantined>();
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

  /** Restores every saved session into the store, then starts logging. */
  async open(): Promise<number> {
    const restored = await this.unlessUnusable(async () => {
      await makeFolder(this.snapshotDir);
      const format = await formatOf(this.options.dir);
      if (format !== 1 && format !== DATA_FORMAT) {
        throw new PersistenceError(
          `DATA_DIR ${this.options.dir} holds data of format ${format}; this version reads formats 1 (and migrates it) and ${DATA_FORMAT}`,
        );
      }
      const restored = await this.restore(format);
      await writeFormat(this.options.dir, this.fsync);
      return restored;
    });
    this.store.observer = this;
    this.wal = await this.unlessUnusable(async () => this.logFile());
    this.timer = setInterval(() => {
      if (this.checkpointDue) void this.checkpoint();
    }, this.options.intervalMs);
    this.timer.unref();
    return restored;
  }

  created(session: Session, undo: Undo): void {
    this.append({ t: 'create', s: session.id, v: 0, options: session.options }, undo);
  }

  called(session: Session, entry: JournalEntry, undo?: Undo): void {
    this.append({ t: 'call', s: session.id, v: 0, entry }, undo);
  }

  answered(session: Session, answer: SubmittedAnswer, undo: Undo): void {
    this.append({ t: 'answer', s: session.id, v: 0, answer }, undo);
  }

  reset(session: Session, undo: Undo): void {
    this.append({ t: 'reset', s: session.id, v: 0 }, undo);
  }

  deleted(id: string, undo: Undo): void {
    this.append({ t: 'delete', s: id, v: 0 }, undo);
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

  /** Sessions set aside on reading DATA_DIR back (DATA_RECOVER=quarantine). */
  get quarantined(): Quarantined[] {
    return [...this.quarantine.values()];
  }

  /** True once the log holds the threshold and at least what the last checkpoint wrote. */
  get checkpointDue(): boolean {
    return this.logBytes >= Math.max(this.options.checkpointBytes ?? DEFAULT_CHECKPOINT_BYTES, this.snapshotBytes);
  }

  /** Writes the snapshots of changed sessions and drops the logs they cover. */
  checkpoint(): Promise<void> {
    this.checkpointing ??= this.writeCheckpoint().finally(() => {
      this.checkpointing = undefined;
    });
    return this.checkpointing;
  }

  /** Final checkpoint: every session in a snapshot, no log left. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.checkpointing;
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
    const log: LogFile<Pending> = new LogFile(this.walPath(++this.walNumber), this.durability, (tags, error) => this.lost(log, tags, error), after);
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
      if (this.store.get(record.s)?.holds(record.entry)) this.append({ t: 'call', s: record.s, v: 0, entry: record.entry });
    }
    later?.reject(error);
  }

  private async writeCheckpoint(final = false): Promise<void> {
    if (!this.wal || (this.dirty.size === 0 && !final)) return;
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
      for (const number of this.retired) await unlink(this.walPath(number)).catch(() => undefined);
      this.retired = [];
      if (this.fsync) await syncFolder(this.options.dir);
    } catch (error) {
      for (const id of ids) this.dirty.add(id);
      this.log.error({ err: error }, 'session checkpoint failed; the logs are kept');
    }
  }

  private async writeSnapshot(id: string): Promise<void> {
    const session = this.store.get(id);
    if (!session) {
      await unlink(this.snapshotPath(id)).catch(() => undefined);
      return;
    }
    const text = frame(JSON.stringify(this.snapshotOf(session)));
    this.snapshotBytes += text.length;
    await writeFileAtomic(this.snapshotPath(id), text, this.fsync);
  }

  private snapshotOf(session: Session): Snapshot {
    return { id: session.id, version: this.versions.get(session.id) ?? 0, options: session.options, ...session.save() };
  }

  /**
   * Rebuilds the saved sessions, folds the replayed logs into fresh snapshots, removes the logs. Data of
   * format 1 (no checksums) is read as it is and migrated: every session written again, the logs removed.
   */
  private async restore(format: number): Promise<number> {
    const legacy = format === 1;
    const snapshots = new Map<string, number>();
    for (const name of await readdir(this.snapshotDir)) {
      if (!name.endsWith('.json') || name.startsWith('.')) continue;
      const path = join(this.snapshotDir, name);
      const id = name.slice(0, -'.json'.length);
      const snapshot = this.readSnapshot(path, id, await readFile(path, 'utf8'), legacy);
      if (!snapshot) continue;
      try {
        await this.prepare(snapshot.id, snapshot.options);
        this.sessionFor(snapshot.id, snapshot.options).load(snapshot);
      } catch (error) {
        this.damaged(path, `it cannot be loaded (${(error as Error).message})`, [id]);
        continue;
      }
      this.versions.set(snapshot.id, snapshot.version);
      snapshots.set(snapshot.id, snapshot.version);
    }
    const logs = (await readdir(this.options.dir))
      .map((name) => /^wal-(\d+)\.jsonl$/.exec(name))
      .filter((match): match is RegExpExecArray => match !== null)
      .map((match) => Number(match[1]))
      .sort((a, b) => a - b);
    const texts = await Promise.all(logs.map((number) => readFile(this.walPath(number), 'utf8')));
    // Only the last log that holds anything may end in a torn record: writes reach the logs in order.
    const lastWithRecords = texts.findLastIndex((text) => text.trim() !== '');
    const order = new LogOrder((id) => snapshots.get(id));
    const touched = new Set<string>();
    let kept = logs.length;
    replaying: for (const [index, text] of texts.entries()) {
      this.walNumber = logs[index]!;
      for (const record of this.records(this.walPath(logs[index]!), text, index === lastWithRecords, legacy)) {
        const wrong = 'damage' in record ? record.damage : legacy ? undefined : order.check({ ...record.value, n: record.value.n ?? Number.NaN });
        if (wrong !== undefined || 'damage' in record) {
          // Nothing from here on can be trusted: the sessions it names are set aside, with the logs.
          const rest = [text.split('\n').slice(record.line).join('\n'), ...texts.slice(index + 1)];
          this.damaged(record.where, wrong ?? 'damaged', sessionsNamedIn(rest));
          kept = index;
          break replaying;
        }
        const { value } = record;
        if (this.quarantine.has(value.s)) continue;
        if (value.t === 'create') await this.prepare(value.s, value.options, record.where);
        if (this.replay(value, record.where, record.bytes)) touched.add(value.s);
        this.nextN = Math.max(this.nextN, (value.n ?? 0) + 1);
      }
    }
    for (const number of logs.slice(kept)) await this.setAside(this.walPath(number));
    for (const { session } of this.quarantine.values()) {
      if (session === undefined) continue;
      touched.delete(session);
      await this.setAside(this.snapshotPath(session)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
    }
    const folded = legacy ? new Set(this.store.list().map((session) => session.id)) : touched;
    try {
      for (const id of folded) await this.writeSnapshot(id);
      if (this.fsync && folded.size > 0) await syncFolder(this.snapshotDir);
      for (const number of logs.slice(0, kept)) await unlink(this.walPath(number));
    } catch (error) {
      if (legacy)
        throw new PersistenceError(
          `DATA_DIR ${this.options.dir}: its data (format 1) could not be migrated to format ${DATA_FORMAT} (${(error as Error).message}); free some space and start again`,
        );
      // A full disk must not stop the start: the logs keep what the snapshots could not, until a checkpoint can.
      this.log.warn(`${this.options.dir}: the restored logs could not be folded into snapshots (${(error as Error).message}); they are kept`);
      this.retired = logs.slice(0, kept);
      for (const id of touched) this.dirty.add(id);
    }
    if (legacy) this.log.info(`DATA_DIR ${this.options.dir}: migrated from format 1 to format ${DATA_FORMAT} (checksummed records and snapshots)`);
    return this.store.size;
  }

  /** A snapshot read back: checked against its checksum and its file's name; undefined when set aside. */
  private readSnapshot(path: string, id: string, text: string, legacy: boolean): Snapshot | undefined {
    const framed = legacy ? { json: text } : unframe(text);
    if ('damage' in framed) return this.damaged(path, framed.damage, [id]);
    let snapshot: Snapshot;
    try {
      snapshot = JSON.parse(framed.json) as Snapshot;
    } catch (error) {
      return this.damaged(path, `not a session snapshot (${(error as Error).message})`, [id]);
    }
    if (snapshot?.id !== id) return this.damaged(path, `it holds session ${JSON.stringify(snapshot?.id)}, not ${id}`, [id]);
    return snapshot;
  }

  /**
   * Damage found on reading DATA_DIR back. By default the start stops, naming the file, the record and what
   * is wrong; with DATA_RECOVER=quarantine, the sessions concerned are moved to DATA_DIR/quarantine and left out.
   */
  private damaged(where: string, what: string, sessions: readonly string[]): undefined {
    if (this.options.recover !== 'quarantine') {
      throw new PersistenceError(
        `${where}: ${what}. DATA_DIR cannot be trusted from there on: restore it from a backup, or start with DATA_RECOVER=quarantine ` +
          'to set the sessions concerned aside (in DATA_DIR/quarantine) and start without them',
      );
    }
    this.log.error({}, `${where}: ${what}; set aside: ${sessions.join(', ') || 'no session'}`);
    for (const id of sessions) {
      if (this.quarantine.has(id)) continue;
      this.quarantine.set(id, { session: id, where, problem: what });
      if (this.store.get(id)) this.store.delete(id);
      this.versions.delete(id);
    }
    if (sessions.length === 0) this.quarantine.set(`(${where})`, { where, problem: what });
    return undefined;
  }

  /** Moves a file into DATA_DIR/quarantine. */
  private async setAside(path: string): Promise<void> {
    const folder = join(this.options.dir, 'quarantine');
    await makeFolder(folder);
    await rename(path, join(folder, basename(path)));
  }

  /**
   * The records of one log. A final line cut short (a crash during its write: never acknowledged)
   * is dropped with a warning; any other line that is not a whole record is reported as damage.
   */
  private *records(
    path: string,
    text: string,
    mayBeTorn: boolean,
    legacy: boolean,
  ): Generator<{ value: LogRecord; where: string; bytes: number; line: number } | { damage: string; where: string; line: number }> {
    const lines = text.split('\n');
    for (const [i, line] of lines.entries()) {
      if (line.trim() === '') continue;
      const where = `${path}:${i + 1}`;
      const framed = legacy ? { json: line } : unframe(line);
      let value: LogRecord | undefined;
      let damage = 'damage' in framed ? framed.damage : undefined;
      const json = 'json' in framed ? framed.json : '';
      if ('json' in framed) {
        try {
          value = JSON.parse(framed.json) as LogRecord;
        } catch (error) {
          damage = `not a log record (${(error as Error).message})`;
        }
      }
      if (damage !== undefined || value === undefined) {
        if (mayBeTorn && i === lines.length - 1) {
          this.log.warn(
            `${where}: dropped a record cut short at its end (${Buffer.byteLength(line)} bytes), as a crash during its write leaves it; it was never acknowledged`,
          );
          return;
        }
        yield { damage: damage ?? 'not a log record', where, line: i };
        return;
      }
      yield { value, where, bytes: json.length, line: i };
    }
  }

  /** Applies one log record (a line of `bytes`) unless a snapshot already holds it; true when applied. */
  private replay(record: LogRecord, where: string, bytes: number): boolean {
    if (typeof record !== 'object' || record === null || typeof record.s !== 'string' || typeof record.v !== 'number') {
      throw new PersistenceError(`${where}: not a log record`);
    }
    if (record.v <= (this.versions.get(record.s) ?? 0)) return false;
    this.versions.set(record.s, record.v);
    try {
      switch (record.t) {
        case 'create':
          this.sessionFor(record.s, record.options);
          break;
        case 'call':
          this.sessionFor(record.s, {}).replay(record.entry, bytes);
          break;
        case 'answer':
          this.sessionFor(record.s, {}).answers.push(record.answer ?? { text: record.text ?? '' });
          break;
        case 'reset':
          this.store.get(record.s)?.reset();
          break;
        case 'delete':
          if (this.store.get(record.s)) this.store.delete(record.s);
          break;
        default:
          throw new Error(`unknown record type ${JSON.stringify((record as { t: unknown }).t)}`);
      }
    } catch (error) {
      throw new PersistenceError(`${where}: cannot apply the log record (${(error as Error).message})`);
    }
    return true;
  }

  /** Task instances of restored sessions, by session id (each built before its session is). */
  private readonly instances = new Map<string, TaskInstance>();

  /** Builds the task instance a restored session runs, if any. */
  private async prepare(id: string, options: SessionOptions, where?: string): Promise<void> {
    if (options?.task === undefined || this.store.get(id)) return;
    try {
      const instance = await this.store.instanceOf(options);
      if (instance) this.instances.set(id, instance);
    } catch (error) {
      throw new PersistenceError(`${where ?? id}: cannot rebuild the task of session ${id} (${(error as Error).message})`);
    }
  }

  private sessionFor(id: string, options: SessionOptions): Session {
    const session = this.store.get(id) ?? this.store.restore(id, options, this.instances.get(id));
    this.instances.delete(id);
    return session;
  }

  private walPath(number: number): string {
    return join(this.options.dir, `wal-${String(number).padStart(6, '0')}.jsonl`);
  }

  private snapshotPath(id: string): string {
    return join(this.snapshotDir, `${id}.json`);
  }
}

/** The sessions records name in these logs' texts (read as text: they may be damaged). */
function sessionsNamedIn(texts: readonly string[]): string[] {
  const ids = new Set<string>();
  for (const text of texts) for (const match of text.matchAll(/^(?:[0-9a-f]{8} )?\{"t":"\w+","s":"([A-Za-z0-9_.-]{1,64})"/gm)) ids.add(match[1]!);
  return [...ids];
}
