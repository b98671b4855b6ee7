import type { HazardEvent } from '../../hazards/event.js';
import type { Change } from './data/overlay.js';
import type { Problem } from './problem.js';
import { type JournalEntry, NONE } from './sessions/journal.js';
import type { Session } from './sessions/session.js';
import type { SessionStore } from './sessions/store.js';

/** Rejected arguments larger than this are journaled as the start of their JSON text. */
export const REJECTED_ARGS_KEPT = 2048;
/** What an entry counts for besides its arguments, result and changes (its fixed fields). */
export const ENTRY_OVERHEAD = 200;

/**
 * One call as every path that serves one reports it to the journal: a tool's call, a proxied call, a call of a
 * tool that does not exist. The entry's fields in the journal's order; the rest says how it is counted.
 */
export interface CallRecord {
  at: number;
  domain: string;
  tool: string;
  /** The n-th call of this tool in the session; 0 for a tool that does not exist. */
  call: number;
  args: unknown;
  status: number;
  result: unknown;
  problem: Problem | undefined;
  idempotency?: JournalEntry['idempotency'];
  changes: readonly Change[];
  hazards: readonly HazardEvent[];
  proxy?: JournalEntry['proxy'];
  /** performance.now() when the call started; absent for a call that ran nothing (duration 0). */
  started?: number;
  /** The size of the arguments as sent; with `cutArgs`, arguments larger than REJECTED_ARGS_KEPT are kept as the start of their text. */
  argsBytes: number;
  cutArgs: boolean;
  /** The arguments' JSON text, when the caller already has it. */
  argsText?: string;
  /** What the entry counts for besides its fixed fields and its arguments: the answer's text, the changes' size. */
  answerBytes: number;
  /** Takes the call back when its log record cannot be written (a write). */
  undo?: (entry: JournalEntry, error: Error) => void;
}

/** Builds the call's journal entry, records it in the session's journal (counted against the shared budget) and returns it. */
export function journalCall(sessions: SessionStore, session: Session, record: CallRecord): JournalEntry {
  const entry: JournalEntry = {
    seq: session.nextSeq,
    at: record.at,
    domain: record.domain,
    tool: record.tool,
    call: record.call,
    args: record.args,
    status: record.status,
    result: record.result,
    problem: record.problem,
    ...(record.idempotency ? { idempotency: record.idempotency } : {}),
    changes: record.changes,
    hazards: record.hazards.length > 0 ? record.hazards : NONE,
    ...(record.proxy ? { proxy: record.proxy } : {}),
    duration_ms: record.started === undefined ? 0 : Math.round((performance.now() - record.started) * 1000) / 1000,
  };
  const kept = record.cutArgs ? keepRejectedArgs(entry, record.args, record.argsBytes, record.argsText) : record.argsBytes;
  const { undo } = record;
  sessions.recordCall(session, entry, ENTRY_OVERHEAD + kept + record.answerBytes, undo ? (error) => undo(entry, error) : undefined);
  return entry;
}

/**
 * The arguments a refused call's entry keeps: as sent, or the start of their JSON text when larger than
 * REJECTED_ARGS_KEPT (with `args_truncated`). Returns the bytes kept.
 */
function keepRejectedArgs(entry: JournalEntry, args: unknown, bytes: number, text?: string): number {
  if (bytes <= REJECTED_ARGS_KEPT) return bytes;
  // A copy, not a slice: V8 would keep the whole text alive behind a slice of it.
  entry.args = Buffer.from((text ?? JSON.stringify(args)).slice(0, REJECTED_ARGS_KEPT)).toString();
  entry.args_truncated = { bytes, kept: REJECTED_ARGS_KEPT };
  return REJECTED_ARGS_KEPT;
}
