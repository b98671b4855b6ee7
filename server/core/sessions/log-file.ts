import { closeSync, fdatasync, ftruncateSync, fstatSync, openSync, writeSync } from 'node:fs';

/** How far a record must get before its write is acknowledged. */
export type Durability = 'process' | 'fsync';

/** Records lost by a failed write or fdatasync, oldest first, with the tag each was appended with. */
export type LostRecords<T> = (tags: T[], error: Error) => void;

/** While the log fails, a write is retried after this long, not at once (a full disk stays full for a while). */
export const RETRY_MS = 100;

interface Group<T> {
  promise: Promise<void>;
  resolve(): void;
  reject(error: Error): void;
  tags: T[];
  /** The file's size before the group was written. */
  start: number;
}

function group<T>(): Group<T> {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  // A failed group is reported to whoever waits on it; none waiting is not a crash.
  promise.catch(() => undefined);
  return { promise, resolve, reject, tags: [], start: 0 };
}

/**
 * An append-only file with group commit. Records appended during one turn of the event loop are
 * written together, in one write, when the turn ends; `settled()` resolves once they are handed to
 * the operating system (`process`: they survive the process being killed) or, with `fsync`, also
 * flushed to the disk by fdatasync (they survive a power loss). While one fdatasync runs, the next
 * records gather into the next group, so a slow disk lowers latency, not throughput.
 *
 * A failed write or fdatasync loses its group and every group after it (they may build on it): the file
 * is cut back to where the first of them began, `lost` is told their records (synchronously, before
 * anyone waiting on them), and their waiters are rejected. The groups before stay.
 */
export class LogFile<T = undefined> {
  private fd: number;
  private size: number;
  private lines: string[] = [];
  /** The records appended since the last write. */
  private open: Group<T> | undefined;
  /** Written, waiting for fdatasync, oldest first. */
  private unsynced: Group<T>[] = [];
  /** The newest group not yet settled: when it settles, so have all before it. */
  private last: Group<T> | undefined;
  private syncing = false;
  private scheduled = false;
  private held: boolean;
  /** True from a failed write or fdatasync until the next one succeeds. */
  failing = false;

  constructor(
    readonly path: string,
    private readonly durability: Durability,
    private readonly lost: LostRecords<T> = () => undefined,
    /** Nothing is written before this settles (the log before this one, still being closed). */
    after?: Promise<unknown>,
  ) {
    this.fd = openSync(path, 'a');
    this.size = fstatSync(this.fd).size;
    this.held = after !== undefined;
    void after?.finally(() => {
      this.held = false;
      if (this.open) this.schedule();
    });
  }

  /** Appends one record (a line without its newline). */
  append(line: string, tag?: T): void {
    this.lines.push(line, '\n');
    if (!this.open) {
      this.open = group();
      this.last = this.open;
    }
    this.open.tags.push(tag as T);
    this.schedule();
  }

  /** Resolves when every record appended so far is durable; rejects if its write failed. */
  settled(): Promise<void> | undefined {
    return this.last?.promise;
  }

  /**
   * Takes the records not written yet out of the log, oldest first; `reject` then tells their waiters.
   * For a log held behind one that lost records these may build on.
   */
  abandon(): { tags: T[]; reject(error: Error): void } {
    const taken = this.open;
    this.open = undefined;
    this.lines = [];
    if (taken === this.last) this.last = this.unsynced.at(-1);
    return { tags: taken?.tags ?? [], reject: (error) => taken?.reject(error) };
  }

  /** Writes what is pending, waits for durability, and closes the file. */
  async close(): Promise<void> {
    this.held = false;
    this.write();
    await this.settled()?.catch(() => undefined);
    closeSync(this.fd);
    this.fd = -1;
  }

  private schedule(): void {
    if (this.scheduled || this.held) return;
    this.scheduled = true;
    if (this.failing) setTimeout(() => this.write(), RETRY_MS);
    else setImmediate(() => this.write());
  }

  private write(): void {
    this.scheduled = false;
    const done = this.open;
    if (!done || this.fd < 0 || this.held) return;
    const text = this.lines.join('');
    this.lines = [];
    this.open = undefined;
    done.start = this.size;
    try {
      const buffer = Buffer.from(text);
      for (let offset = 0; offset < buffer.length; ) offset += writeSync(this.fd, buffer, offset);
      this.size += buffer.length;
    } catch (error) {
      this.fail([done], error as Error);
      return;
    }
    if (this.durability === 'process') {
      this.failing = false;
      this.settle(done);
      return;
    }
    this.unsynced.push(done);
    this.sync();
  }

  /** One fdatasync at a time; it covers every group written before it started. */
  private sync(): void {
    if (this.syncing || this.unsynced.length === 0) return;
    this.syncing = true;
    const covered = this.unsynced;
    this.unsynced = [];
    fdatasync(this.fd, (error) => {
      this.syncing = false;
      if (error) {
        // What was written after these groups may build on them: it is lost with them.
        const later = this.unsynced;
        this.unsynced = [];
        this.fail([...covered, ...later], error);
        return;
      }
      this.failing = false;
      for (const done of covered) this.settle(done);
      this.sync();
    });
  }

  /** Loses `groups` (oldest first) and the open one: cut back to where the first began, told, rejected. */
  private fail(groups: Group<T>[], error: Error): void {
    this.failing = true;
    const open = this.open;
    this.open = undefined;
    this.lines = [];
    if (open) groups.push(open);
    try {
      ftruncateSync(this.fd, groups[0]!.start);
      this.size = groups[0]!.start;
    } catch {
      // The file keeps a partial record at its end; the next start names it.
    }
    this.last = this.unsynced.at(-1);
    this.lost(
      groups.flatMap((done) => done.tags),
      error,
    );
    for (const done of groups) done.reject(error);
  }

  private settle(done: Group<T>): void {
    if (done === this.last) this.last = undefined;
    done.resolve();
  }
}
