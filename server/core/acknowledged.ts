import type { CallDependencies, CallOutcome } from './pipeline.js';
import { type JournalEntry, NONE } from './sessions/journal.js';
import type { Session } from './sessions/session.js';
import { notPersisted, PERSISTENCE_FAILED } from './sessions/store.js';

/**
 * With DATA_DIR, a call is answered only once its journal record is durable. A write whose record could
 * not be written was taken back (its entry says so) and is answered 503; a read changed nothing durable,
 * so it is answered, and its record is written with the log's next success. While the log is failing,
 * reads do not wait for it.
 */
export function acknowledged<O extends CallOutcome<string>>(deps: CallDependencies, outcome: O): O | Promise<O> {
  const pending = deps.sessions.persisted();
  if (!pending || (deps.sessions.persistenceFailing && isRead(outcome.entry))) return outcome;
  return pending.then(
    () => outcome,
    (error: unknown) => {
      if (isRead(outcome.entry)) return outcome;
      const failure = outcome.entry.problem?.code === PERSISTENCE_FAILED ? outcome.entry.problem : notPersisted(error).problem;
      return { ...outcome, kind: 'problem', status: 503, body: failure, text: JSON.stringify(failure), headers: {}, fault: undefined } as O;
    },
  );
}

/** A call that changed no record (a refused write included), and so nothing a restart must restore. */
const isRead = (entry: JournalEntry) => entry.changes.length === 0 && entry.problem?.code !== PERSISTENCE_FAILED;

/**
 * Takes a write back because its log record could not be written: its records as they were, its
 * idempotency key forgotten, and its journal entry rewritten as what the client receives (503, no changes).
 */
export function refuse(session: Session, entry: JournalEntry, revert: () => void, error: Error): void {
  revert();
  session.idempotency.forget(entry);
  const refusal = notPersisted(error).problem;
  entry.status = refusal.status;
  entry.problem = refusal;
  entry.result = undefined;
  entry.changes = NONE;
  if (entry.hazards.some((event) => event.committed)) entry.hazards = entry.hazards.map((event) => (event.committed ? { ...event, committed: false } : event));
}
