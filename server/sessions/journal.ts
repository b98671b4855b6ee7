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

/** One call as the session saw it. */
export interface JournalEntry {
  seq: number;
  /** The session clock's time of the call. */
  at: string;
  domain: string;
  tool: string;
  /** The n-th call of this tool in the session, counting from 1. */
  call: number;
  args: unknown;
  status: number;
  result?: unknown;
  problem?: Problem;
  /** Records the call wrote (empty for reads and failed calls). */
  changes: Change[];
  hazards: HazardEvent[];
  /** Wall time spent serving the call: observability only, never data. */
  duration_ms: number;
}

export const journalToJsonl = (entries: readonly JournalEntry[]): string =>
  entries.map((entry) => JSON.stringify(entry)).join('\n') + (entries.length > 0 ? '\n' : '');
