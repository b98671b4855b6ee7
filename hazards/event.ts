/** A hazard injected into a call, as the call's journal entry records it. */
export interface HazardEvent {
  kind: string;
  family: string;
  tool: string;
  call: number;
  recovery: string;
  hint?: string;
  /** A fault a plain retry gets past (transient failures, latency, transport faults). */
  retryable: boolean;
  /** For failures of a write: whether it ran before the answer was lost (true), or not at all (false). */
  committed?: boolean;
  [detail: string]: unknown;
}
