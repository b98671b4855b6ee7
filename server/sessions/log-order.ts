/** The fields of a log record its order is checked by. */
export interface Ordered {
  /** Its number among all records of all logs: one more than the record before it. */
  n: number;
  /** The session's change number: one more than the session's change before it. */
  v: number;
  s: string;
  t: string;
}

/**
 * Checks that log records come back as they were written: none missing, none twice, none out of place,
 * across logs; and that each session's changes follow on from its snapshot.
 */
export class LogOrder {
  private last: number | undefined;
  private readonly versions = new Map<string, number>();

  constructor(
    /** The change number a session's snapshot holds; undefined without a snapshot. */
    private readonly snapshotVersion: (id: string) => number | undefined,
  ) {}

  /** What is wrong with the next record's place, if anything. */
  check(record: Ordered): string | undefined {
    if (!Number.isSafeInteger(record.n) || !Number.isSafeInteger(record.v) || typeof record.s !== 'string') return 'it has no sequence number';
    if (this.last !== undefined && record.n !== this.last + 1) {
      return record.n <= this.last
        ? `record ${record.n} comes after record ${this.last}: a record repeated or out of order`
        : `records ${this.last + 1} to ${record.n - 1} are missing (record ${record.n} follows ${this.last})`;
    }
    this.last = record.n;
    const previous = this.versions.get(record.s);
    this.versions.set(record.s, record.v);
    if (previous !== undefined) {
      return record.v === previous + 1 ? undefined : `session ${record.s}: its change ${record.v} follows its change ${previous}`;
    }
    const snapshot = this.snapshotVersion(record.s);
    if (snapshot === undefined) return record.t === 'create' ? undefined : `session ${record.s} has no snapshot, and its first record is not its creation`;
    return record.v <= snapshot + 1
      ? undefined
      : `session ${record.s}: its changes ${snapshot + 1} to ${record.v - 1} are missing (its snapshot holds ${snapshot})`;
  }
}
