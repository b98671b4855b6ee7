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
 * across logs; and that each session's changes follow on from each other (from its snapshot: see
 * `followsSnapshot`, checked when the snapshot is read).
 */
export class LogOrder {
  private last: number | undefined;
  private readonly versions = new Map<string, number>();

  constructor(
    /** Whether the session has a snapshot (else its first record must be its creation). */
    private readonly hasSnapshot: (id: string) => boolean,
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
    if (this.hasSnapshot(record.s) || record.t === 'create') return undefined;
    return `session ${record.s} has no snapshot, and its first record is not its creation`;
  }
}

/** What is wrong when a session's first log record does not follow on from its snapshot's change number. */
export function followsSnapshot(session: string, first: number, snapshot: number): string | undefined {
  return first <= snapshot + 1 ? undefined : `session ${session}: its changes ${snapshot + 1} to ${first - 1} are missing (its snapshot holds ${snapshot})`;
}
