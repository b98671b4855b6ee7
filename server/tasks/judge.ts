import { type Score, type ScoredCall, scoreRun } from '../../scoring/score.js';
import type { TaskSpec } from '../../scoring/task.js';
import type { CompatMode } from '../../domains/tool.js';
import { DomainState } from '../data/domain-state.js';
import type { Change } from '../data/overlay.js';
import { problemError } from '../problem.js';
import type { Session } from '../sessions/session.js';
import { type TaskBook, changedRecords } from './book.js';

export interface SessionScore extends Score {
  session: string;
  /** False when the journal dropped old calls (JOURNAL_LIMIT): the verdicts on hazards and traps then miss them. */
  journal_complete: boolean;
}

/** The task a session runs, or a problem saying it runs none. */
export function taskOf(session: Session, tasks: TaskBook): TaskSpec {
  const id = session.options.task;
  const task = id === undefined ? undefined : tasks.get(id);
  if (!task) throw problemError(409, 'no_task', `Session ${session.id} runs no task; create it with POST /sessions {"task": …}.`);
  return task;
}

/** Scores a live session from its journal, its databases and its recorded answers. */
export function scoreSession(session: Session, tasks: TaskBook): SessionScore {
  const task = taskOf(session, tasks);
  const states = new Map(session.domainNames().map((name) => [name, session.domain(name)]));
  const score = scoreRun(task, {
    calls: session.journalSince(0),
    actual: changedRecords(states),
    expected: tasks.expected(task, session.compat),
    answers: session.answers,
  });
  return { session: session.id, ...score, journal_complete: session.journal.length === session.seq };
}

/** A stored journal's entry, as re-scoring reads it. */
export interface StoredCall extends ScoredCall {
  changes: readonly Change[];
}

/** Re-scores a stored run: its end state rebuilt from the journal's changes over the default databases. */
export function scoreJournal(task: TaskSpec, calls: readonly StoredCall[], answers: readonly string[], tasks: TaskBook, compat: CompatMode): Score {
  const states = new Map<string, DomainState>();
  calls.forEach((call, index) => {
    if (call.changes.length === 0) return;
    const base = tasks.bases.get(call.domain);
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
  return scoreRun(task, { calls, actual: changedRecords(states), expected: tasks.expected(task, compat), answers });
}
