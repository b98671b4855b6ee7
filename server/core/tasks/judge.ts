import type { ChangedRecord } from '../../../scoring/end-state.js';
import { type Score, type ScoredCall, type SubmittedAnswer, scoreRun } from '../../../scoring/score.js';
import type { BaseDatabase } from '../data/base.js';
import { DomainState } from '../data/domain-state.js';
import type { Change } from '../data/overlay.js';
import { problemError } from '../problem.js';
import type { Session } from '../sessions/session.js';
import { changedRecords, type TaskInstance } from './instance.js';

export interface SessionScore extends Score {
  session: string;
  /** The instance the session ran. */
  seed: number;
  /** False when the journal dropped old calls (JOURNAL_LIMIT): the verdicts on hazards and traps then miss them. */
  journal_complete: boolean;
}

/** The task instance a session runs, or a problem saying it runs none. */
export function instanceOf(session: Session): TaskInstance {
  if (!session.instance) throw problemError(409, 'no_task', `Session ${session.id} runs no task; create it with POST /sessions {"task": …}.`);
  return session.instance;
}

/** The records each domain's state changed, as the scorer compares them. */
export const recordsOf = (states: ReadonlyMap<string, DomainState>): ChangedRecord[] => [...states].flatMap(([name, state]) => changedRecords(name, state));

/** Scores a live session from its journal, its databases and its recorded answers. */
export function scoreSession(session: Session): SessionScore {
  const instance = instanceOf(session);
  const states = new Map(session.domainNames().map((name) => [name, session.domain(name)]));
  const score = scoreRun(instance.scored, {
    calls: session.journalSince(0),
    actual: recordsOf(states),
    expected: instance.expected,
    clock: instance.clockPaths,
    answers: session.answers,
  });
  return { session: session.id, seed: instance.seed, ...score, journal_complete: session.journal.length === session.seq };
}

/** A stored journal's entry, as re-scoring reads it. */
export interface StoredCall extends ScoredCall {
  changes: readonly Change[];
}

/** Re-scores a stored run: its end state rebuilt from the journal's changes over the instance's databases. */
export function scoreJournal(
  instance: TaskInstance,
  calls: readonly StoredCall[],
  answers: readonly SubmittedAnswer[],
  bases: ReadonlyMap<string, BaseDatabase>,
): Score {
  const states = new Map<string, DomainState>();
  calls.forEach((call, index) => {
    if (call.changes.length === 0) return;
    const base = call.domain === instance.domain.name ? instance.base : bases.get(call.domain);
    if (!base)
      throw problemError(400, 'invalid_input', `journal.${index}.domain: no domain named ${JSON.stringify(call.domain)}`, { field: `journal.${index}.domain` });
    const unknown = call.changes.findIndex((change) => !base.tables.has(change.table));
    if (unknown >= 0) {
      const field = `journal.${index}.changes.${unknown}.table`;
      throw problemError(400, 'invalid_input', `${field}: ${call.domain} has no table ${JSON.stringify(call.changes[unknown]!.table)}`, { field });
    }
    let state = states.get(call.domain);
    if (!state) {
      state = new DomainState(base);
      states.set(call.domain, state);
    }
    state.apply(call.changes);
  });
  return scoreRun(instance.scored, { calls, actual: recordsOf(states), expected: instance.expected, clock: instance.clockPaths, answers });
}
