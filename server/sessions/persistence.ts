import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { JSONFile } from 'lowdb/node';
import { entryBytes, type JournalEntry } from './journal.js';
import type { SavedSession, Session, SessionOptions } from './session.js';
import type { SessionObserver, SessionStore } from './store.js';

/** One line of the write-ahead log. `v` counts the records of a session. */
type LogRecord =
  | { t: 'create'; s: string; v: number; options: SessionOptions }
  | { t: 'call'; s: string; v: number; entry: JournalEntry }
  | { t: 'reset'; s: string; v: number }
  | { t: 'delete'; s: string; v: number };

/** A session as written at a checkpoint: enough to rebuild it exactly. */
interface Snapshot extends SavedSession {
  id: string;
  version: number;
  options: SessionOptions;
}

interface Logger {
  info(message: string): void;
  error(details: object, message: string): void;
}

/**
 * Sessions that survive a restart, without rewriting a whole file per call: every change is
 * appended as one line to a write-ahead log; at most once per interval, the sessions changed
 * since the last checkpoint are written as snapshots (with lowdb, atomically) and the log is
 * rotated. A restart reads the snapshots and replays what the log holds beyond them.
 */
export class SessionPersistence implements SessionObserver {
  private wal: WriteStream | undefined;
  private walNumber = 0;
  private readonly versions = new Map<string, number>();
  private readonly dirty = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private checkpointing: Promise<void> | undefined;

  constructor(
    private readonly dir: string,
    private readonly store: SessionStore,
    private readonly intervalMs: number,
    private readonly log: Logger,
  ) {}

  private get snapshotDir(): string {
    return join(this.dir, 'sessions');
  }

  /** Restores every saved session into the store, then starts logging. */
  async open(): Promise<number> {
    await mkdir(this.snapshotDir, { recursive: true });
    const restored = await this.restore();
    this.store.observer = this;
    this.walNumber += 1;
    this.wal = createWriteStream(this.walPath(this.walNumber), { flags: 'a' });
    this.timer = setInterval(() => void this.checkpoint(), this.intervalMs);
    this.timer.unref();
    return restored;
  }

  created(session: Session): void {
    this.append({ t: 'create', s: session.id, v: 0, options: session.options });
  }

  called(session: Session, entry: JournalEntry): void {
    this.append({ t: 'call', s: session.id, v: 0, entry });
  }

  reset(session: Session): void {
    this.append({ t: 'reset', s: session.id, v: 0 });
  }

  deleted(id: string): void {
    this.append({ t: 'delete', s: id, v: 0 });
  }

  /** Writes the snapshots of changed sessions and drops the log they cover. */
  checkpoint(): Promise<void> {
    this.checkpointing ??= this.writeCheckpoint().finally(() => {
      this.checkpointing = undefined;
    });
    return this.checkpointing;
  }

  /** Final checkpoint; the log is closed. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.checkpoint();
    await endStream(this.wal);
    this.wal = undefined;
    this.store.observer = undefined;
  }

  private append(record: LogRecord): void {
    const version = (this.versions.get(record.s) ?? 0) + 1;
    this.versions.set(record.s, version);
    record.v = version;
    this.dirty.add(record.s);
    this.wal?.write(`${JSON.stringify(record)}\n`);
  }

  private async writeCheckpoint(): Promise<void> {
    if (this.dirty.size === 0 || !this.wal) return;
    const previous = this.wal;
    const previousNumber = this.walNumber;
    this.walNumber += 1;
    this.wal = createWriteStream(this.walPath(this.walNumber), { flags: 'a' });
    const ids = [...this.dirty];
    this.dirty.clear();
    try {
      for (const id of ids) {
        const session = this.store.get(id);
        if (session) await new JSONFile<Snapshot>(this.snapshotPath(id)).write(this.snapshotOf(session));
        else await unlink(this.snapshotPath(id)).catch(() => undefined);
      }
      await endStream(previous);
      await unlink(this.walPath(previousNumber));
    } catch (error) {
      for (const id of ids) this.dirty.add(id);
      this.log.error({ err: error }, 'session checkpoint failed; the log is kept');
    }
  }

  private snapshotOf(session: Session): Snapshot {
    return { id: session.id, version: this.versions.get(session.id) ?? 0, options: session.options, ...session.save() };
  }

  /** Rebuilds the saved sessions, folds the replayed logs into fresh snapshots, removes the logs. */
  private async restore(): Promise<number> {
    for (const name of await readdir(this.snapshotDir)) {
      if (!name.endsWith('.json')) continue;
      const snapshot = await new JSONFile<Snapshot>(join(this.snapshotDir, name)).read();
      if (!snapshot) continue;
      this.sessionFor(snapshot.id, snapshot.options).load(snapshot);
      this.versions.set(snapshot.id, snapshot.version);
    }
    const logs = (await readdir(this.dir))
      .map((name) => /^wal-(\d+)\.jsonl$/.exec(name))
      .filter((match): match is RegExpExecArray => match !== null)
      .map((match) => Number(match[1]))
      .sort((a, b) => a - b);
    const touched = new Set<string>();
    for (const number of logs) {
      for (const line of (await readFile(this.walPath(number), 'utf8')).split('\n')) {
        if (line.trim() === '') continue;
        const record = JSON.parse(line) as LogRecord;
        if (this.replay(record)) touched.add(record.s);
      }
      this.walNumber = number;
    }
    for (const id of touched) {
      const session = this.store.get(id);
      if (session) await new JSONFile<Snapshot>(this.snapshotPath(id)).write(this.snapshotOf(session));
      else await unlink(this.snapshotPath(id)).catch(() => undefined);
    }
    for (const number of logs) await unlink(this.walPath(number));
    return this.store.size;
  }

  /** Applies one log record unless a snapshot already holds it; true when applied. */
  private replay(record: LogRecord): boolean {
    if (record.v <= (this.versions.get(record.s) ?? 0)) return false;
    this.versions.set(record.s, record.v);
    switch (record.t) {
      case 'create':
        this.sessionFor(record.s, record.options);
        break;
      case 'call':
        this.sessionFor(record.s, {}).replay(record.entry, entryBytes(record.entry));
        break;
      case 'reset':
        this.store.get(record.s)?.reset();
        break;
      case 'delete':
        if (this.store.get(record.s)) this.store.delete(record.s);
        break;
    }
    return true;
  }

  private sessionFor(id: string, options: SessionOptions): Session {
    return this.store.get(id) ?? this.store.restore(id, options);
  }

  private walPath(number: number): string {
    return join(this.dir, `wal-${String(number).padStart(6, '0')}.jsonl`);
  }

  private snapshotPath(id: string): string {
    return join(this.snapshotDir, `${id}.json`);
  }
}

function endStream(stream: WriteStream | undefined): Promise<void> {
  if (!stream) return Promise.resolve();
  return new Promise((resolve, reject) => {
    stream.once('error', reject);
    stream.end(() => resolve());
  });
}
