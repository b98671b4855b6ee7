import type { Domain } from '../domains/domain.js';
import type { AnyTool } from '../domains/tool.js';
import type { CallContext, HazardEngine } from '../hazards/engine.js';
import type { Change } from './data/overlay.js';
import { invalidInput, type Problem, ProblemError, problem, toProblem } from './problem.js';
import type { JournalEntry } from './sessions/journal.js';
import type { Session } from './sessions/session.js';
import type { SessionStore } from './sessions/store.js';

export interface CallOutcome {
  status: number;
  /** The response body: the tool's result, or a problem. */
  body: unknown;
  headers: Record<string, string>;
  entry: JournalEntry;
}

export interface CallDependencies {
  sessions: SessionStore;
  hazards: HazardEngine;
  log?: { error(details: object, message: string): void };
}

/**
 * The one path every tool call walks: before-call hazards, validation, the tool against
 * the session's database (all writes or none), after-call hazards, journal.
 */
export async function callTool(
  deps: CallDependencies,
  session: Session,
  domain: Domain,
  tool: AnyTool,
  args: unknown,
): Promise<CallOutcome> {
  const started = performance.now();
  const at = session.clock.tick();
  const context: CallContext = { session, domain: domain.name, tool, call: session.countCall(domain.name, tool.name), args, events: [] };
  let status = 200;
  let body: unknown;
  let headers: Record<string, string> = {};
  let changes: Change[] = [];
  try {
    await deps.hazards.before(context);
    const parsed = tool.input.safeParse(context.args ?? {}, { reportInput: true });
    if (!parsed.success) throw new ProblemError(invalidInput(parsed.error));
    const ctx = { session: session.id, now: () => session.clock.now() };
    const outcome = session.domain(domain.name).transact((tables) => tool.run(parsed.data, tables, ctx));
    changes = outcome.changes;
    body = await deps.hazards.after(context, outcome.result);
  } catch (error) {
    const failure = toProblem(error) ?? internalError(deps, error);
    status = failure.problem.status;
    body = failure.problem;
    headers = failure.headers;
  }
  const entry: JournalEntry = {
    seq: session.nextSeq,
    at: at.toISOString(),
    domain: domain.name,
    tool: tool.name,
    call: context.call,
    args,
    status,
    ...(status < 400 ? { result: body } : { problem: body as Problem }),
    changes,
    hazards: context.events,
    duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
  };
  deps.sessions.recordCall(session, entry);
  return { status, body, headers, entry };
}

/** A bug, not a client mistake: logged with its stack, journaled, answered as a 500. */
function internalError(deps: CallDependencies, error: unknown): ProblemError {
  deps.log?.error({ err: error }, 'tool call failed');
  return new ProblemError(problem(500, 'internal_error', 'The server failed to complete the call; it has been logged.'));
}
