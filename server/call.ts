import type { Domain } from '../domains/domain.js';
import type { AnyTool } from '../domains/tool.js';
import type { CallContext, HazardEngine } from '../hazards/engine.js';
import type { Change } from './data/overlay.js';
import { invalidInput, type Problem, ProblemError, problem, toProblem } from './problem.js';
import { type JournalEntry, NONE } from './sessions/journal.js';
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
  let changes: readonly Change[] = NONE;
  try {
    const before = deps.hazards.before(context);
    if (before) await before;
    const parsed = tool.input.safeParse(context.args ?? {});
    // zod's compiled fast path is lost with reportInput: ask for the input only to explain a failure.
    if (!parsed.success) throw new ProblemError(invalidInput(tool.input.safeParse(context.args ?? {}, { reportInput: true }).error!));
    const ctx = { session: session.id, now: () => session.clock.now() };
    const state = session.domain(domain.name);
    let result: unknown;
    if (tool.mutates) ({ result, changes } = state.transact((tables) => tool.run(parsed.data, tables, ctx)));
    else result = state.read((tables) => tool.run(parsed.data, tables, ctx));
    const after = deps.hazards.after(context, result);
    body = after instanceof Promise ? await after : after;
  } catch (error) {
    const failure = toProblem(error) ?? internalError(deps, error);
    status = failure.problem.status;
    body = failure.problem;
    headers = failure.headers;
  }
  const entry: JournalEntry = {
    seq: session.nextSeq,
    at,
    domain: domain.name,
    tool: tool.name,
    call: context.call,
    args,
    status,
    result: status < 400 ? body : undefined,
    problem: status < 400 ? undefined : (body as Problem),
    changes: changes.length > 0 ? changes : NONE,
    hazards: context.events.length > 0 ? context.events : NONE,
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
