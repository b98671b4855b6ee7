import type { Change } from '../data/overlay.js';
import type { Problem } from '../problem.js';

/** A hazard injected into a call (filled by the hazard engine). */
export interface HazardEvent {
  kind: string;
  family: string;
  tool: string;
  call: number;
  recovery: string;
  hint?: string;
  [detail: string]: unknown;
}

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
  /** The n-th call of this tool in the session, counting from 1. */
  call: number;
  args: unknown;
  status: number;
  result: unknown;
  problem: Problem | undefined;
  /** Records the call wrote (empty for reads and failed calls). */
  changes: readonly Change[];
  hazards: readonly HazardEvent[];
  /** Wall time spent serving the call: observability only, never data. */
  duration_ms: number;
}

/** The shared value of an entry's empty lists. */
export const NONE: readonly never[] = Object.freeze([]);

/** An entry as the API shows it: the time in ISO 8601. */
export const publicEntry = (entry: JournalEntry) => ({ ...entry, at: new Date(entry.at).toISOString() });

export const journalToJson = (entries: readonly JournalEntry[]): string => JSON.stringify(entries.map(publicEntry));

export const journalToJsonl = (entries: readonly JournalEntry[]): string =>
  entries.map((entry) => `${JSON.stringify(publicEntry(entry))}\n`).join('');
