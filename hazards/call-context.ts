import type { Table } from '../lib/table.js';
import type { HazardEvent } from './event.js';
import type { HazardTool } from './kind.js';

/** What the engine needs of a session (the server's sessions satisfy it). */
export interface HazardSession {
  readonly id: string;
  readonly seed: string;
  /**
   * What the hazard draws are keyed by besides the seed, the tool, the kind and the call: the session's id when
   * it was created without a seed; with a seed, its task's id (or nothing), so that two sessions of the same
   * task and seed meet the same faults at the same calls.
   */
  readonly scope: string;
  /** The session's own hazard settings (POST /sessions {"hazards"}), unchecked. */
  readonly options: { readonly hazards?: unknown };
  callCount(domain: string, tool: string): number;
  /** How many of this tool's latest calls in a row a retryable fault hit. */
  faultStreak(domain: string, tool: string): number;
  /** The session's view of a domain database, to read. */
  domain(name: string): { readonly tables: Record<string, Table<unknown>> };
  /** The writes the session's task asks for in a domain (none without a task): a planted text asking for one of them is not obeyed by doing it. */
  requestedWrites?(domain: string): readonly { readonly tool: string; readonly args: Record<string, unknown> }[];
}

/** What a hazard stage knows of the call it may disturb. */
export interface CallContext {
  readonly session: HazardSession;
  readonly domain: string;
  readonly tool: HazardTool;
  /** The n-th call of this tool in the session, counting from 1. */
  readonly call: number;
  /** The session clock's time of this call, epoch milliseconds. */
  readonly at: number;
  /** The arguments as the agent sent them (before validation). */
  args: unknown;
  /** Hazards injected into this call; the journal records them. */
  readonly events: HazardEvent[];
  /** Headers a hazard adds to the answer (a deprecation, a hint for a list answer). */
  readonly headers: Record<string, string>;
}
