import { closeSync, fdatasync, ftruncateSync, fstatSync, openSync, writeSync } from 'node:fs';

/** How far a record must get before its write is acknowledged. */
export type Durability = 'process' | 'fsync';

interface Group {
  promise: Promise<void>;
  resolve(): void;
  reject(error: Error): void;
}

function group(): Group {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  // A failed group is reported to whoever waits on it; none waiting is not a crash.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/**
 * An append-only file with group commit. Records appended during one turn of the event loop are
 * written together, in one write, when the turn ends; `settled()` resolves once they are handed to
 * the operating system (`process`: they survive the process being killed) or, with `fsync`, also
 * flushed to the disk by fdatasync (they survive a power loss). While one fdatasync runs, the next
 * records gather into the next group, so a slow disk lowers latency, not throughput.
 */
export class LogFile {
  private fd: number;
  private size: number;
  private lines: string[] = [];
  /** The records appended since the last write. */
  private open: Group | undefined;
  /** Written, waiting for fdatasync. */
  private unsynced: Group[] = [];
  /** The newest group not yet settled: when it settles, so have all before it. */
  private last: Group | undefined;
  private syncing = false;
  private scheduled = false;

  constructor(
    readonly path: string,
    private readonly durability: Durability,
  ) {
    this.fd = openSync(path, 'a');
    this.size = fstatSync(this.fd).size;
  }

  /** Appends one record (a line without its newline). */
  append(line: string): void {
    this.lines.push(line, '\n');
    if (!this.open) {
      this.open = group();
      this.last = this.open;
    }
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.write());
    }
  }

  /** Resolves when every record appended so far is durable; rejects if its write failed. */
  settled(): Promise<void> | undefined {
    return this.last?.promise;
  }

  /** Writes what is pending, waits for durability, and closes the file. */
  async close(): Promise<void> {
    this.write();
    await this.settled()?.catch(() => undefined);
    closeSync(this.fd);
    this.fd = -1;
  }

  private write(): void {
    this.scheduled = false;
    const done = this.open;
    if (!done || this.fd < 0) return;
    const text = this.lines.join('');
    this.lines = [];
    this.open = undefined;
    try {
      const buffer = Buffer.from(text);
      for (let offset = 0; offset < buffer.length; ) offset += writeSync(this.fd, buffer, offset);
      this.size += buffer.length;
    } catch (error) {
      // Cut a partial write off, so that the file stays a sequence of whole records.
      try {
        ftruncateSync(this.fd, this.size);
      } catch {
        // the next start names the damaged line
      }
      this.settle(done, error as Error);
      return;
    }
    if (this.durability === 'process') {
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
      for (const done of covered) this.settle(done, error ?? undefined);
      this.sync();
    });
  }

  private settle(done: Group, error?: Error): void {
    if (done === this.last) this.last = undefined;
    if (error) done.reject(error);
    else done.resolve();
  }
}
