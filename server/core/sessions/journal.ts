import type { Change } from '../data/overlay.js';
import type { HazardEvent } from '../../../hazards/event.js';
import type { Problem } from '../problem.js';

/**
 * One call as the session saw it. Entries live as long as the session, so they are kept lean:
 * the time as a number, shared empty lists, the result by reference to the (immutable) record.
 */
export interface JournalEntry {
  seq: number;
  /** The session clock's time of the call, epoch milliseconds (ISO 8601 in the API). */
  at: number;
  domain: string;
  tool: string;
  /** The n-th call of this tool in the session, counting from 1; 0 for a call of a tool that does not exist (server/core/unknown-call.ts). */
  call: number;
  /** The arguments as sent; for a rejected call larger than a bound, the start of their JSON text. */
  args: unknown;
  /** Present when `args` was cut: the size of the arguments as sent, and how much of it is kept. */
  args_truncated?: { bytes: number; kept: number };
  status: number;
  result: unknown;
  problem: Problem | undefined;
  /** For a write sent with an idempotency key: the key, and the call it replayed (when it did not write). */
  idempotency?: { key: string; replayed?: number };
  /** Records the call wrote (empty for reads and failed calls). */
  changes: readonly Change[];
  hazards: readonly HazardEvent[];
  /** A call through a proxy: the request as sent (secrets redacted), and what the upstream answered (absent when it was never reached). */
  proxy?: { method: string; path: string; upstream_status?: number };
  /** Wall time spent serving the call: observability only, never data. */
  duration_ms: number;
}

/** The shared value of an entry's empty lists. */
export const NONE: readonly never[] = Object.freeze([]);

/** An entry as the API shows it: the time in ISO 8601. */
export const publicEntry = (entry: JournalEntry) => ({ ...entry, at: new Date(entry.at).toISOString() });

export const journalToJson = (entries: readonly JournalEntry[]): string => JSON.stringify(entries.map(publicEntry));

export const journalToJsonl = (entries: readonly JournalEntry[]): string => entries.map((entry) => `${JSON.stringify(publicEntry(entry))}\n`).join('');

/** The size an entry counts for, as JSON (entries restored from disk). */
export const entryBytes = (entry: JournalEntry): number => JSON.stringify(entry).length;

/** Memory the journals of all sessions share, counted in bytes of JSON. */
export class JournalBudget {
  used = 0;
  constructor(readonly limit: number) {}

  get exceeded(): boolean {
    return this.used > this.limit;
  }
}

/** An entry as a journal holds it: parsed, or the JSON text it was read back from disk as (parsed on first use). */
export type HeldEntry = JournalEntry | string;

/**
 * One session's calls, oldest first: at most `limit` entries, each with its size counted against
 * the shared budget. Dropping the oldest entries is cheap (an index moves; the arrays are compacted
 * once half of them is dropped). Entries read back from disk stay text until something reads them,
 * so that a session of many calls loads in the time it takes to read its file.
 */
export class Journal {
  /** Dropped entries become holes at once, so that their memory is released. */
  private entries: (HeldEntry | undefined)[] = [];
  private sizes: number[] = [];
  private head = 0;
  private keptBytes = 0;

  constructor(
    private readonly limit: number,
    private readonly budget: JournalBudget,
  ) {}

  get length(): number {
    return this.entries.length - this.head;
  }

  get bytes(): number {
    return this.keptBytes;
  }

  append(entry: HeldEntry, bytes: number): void {
    this.entries.push(entry);
    this.sizes.push(bytes);
    this.count(bytes);
    if (this.length > this.limit) this.dropOldest(this.length - this.limit);
  }

  /** Entries with a sequence number above `seq` (entries are numbered without gaps). */
  since(seq: number): JournalEntry[] {
    const first = this.at(this.head)?.seq ?? 1;
    const found: JournalEntry[] = [];
    for (let i = this.head + Math.max(0, seq - first + 1); i < this.entries.length; i++) found.push(this.at(i)!);
    return found;
  }

  /** The kept entry with this sequence number. */
  get(seq: number): JournalEntry | undefined {
    const first = this.at(this.head)?.seq;
    return first === undefined || seq < first ? undefined : this.at(this.head + seq - first);
  }

  /** The kept entries as held, oldest first: text stays text (persistence writes it as it is). */
  held(): HeldEntry[] {
    return this.entries.slice(this.head) as HeldEntry[];
  }

  private at(index: number): JournalEntry | undefined {
    const entry = this.entries[index];
    if (typeof entry !== 'string') return entry;
    const parsed = JSON.parse(entry) as JournalEntry;
    this.entries[index] = parsed;
    return parsed;
  }

  /** Drops the oldest entries until `bytes` are freed or `keep` entries remain. */
  free(bytes: number, keep = 0): void {
    let count = 0;
    let freed = 0;
    while (freed < bytes && this.length - count > keep) freed += this.sizes[this.head + count++]!;
    this.dropOldest(count);
  }

  clear(): void {
    this.count(-this.keptBytes);
    this.entries = [];
    this.sizes = [];
    this.head = 0;
  }

  private dropOldest(count: number): void {
    let freed = 0;
    for (let i = this.head; i < this.head + count; i++) {
      freed += this.sizes[i]!;
      this.entries[i] = undefined;
    }
    this.head += count;
    this.count(-freed);
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.sizes = this.sizes.slice(this.head);
      this.head = 0;
    }
  }

  private count(bytes: number): void {
    this.keptBytes += bytes;
    this.budget.used += bytes;
  }
}
