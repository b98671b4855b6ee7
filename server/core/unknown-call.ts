import type { FastifyInstance } from 'fastify';
import { journalCall } from './journal-entry.js';
import type { ProblemError } from './problem.js';
import { NONE } from './sessions/journal.js';
import type { Session } from './sessions/session.js';

/** The longest tool name a journal entry keeps of a call to a tool that does not exist (names are the client's text). */
export const UNKNOWN_NAME_KEPT = 128;

/**
 * A call of a tool the view does not have, in every surface (REST, MCP, OpenEnv): journaled like any call
 * (the session's clock ticks, the entry has the next sequence number), with the tool's name as sent (at most
 * UNKNOWN_NAME_KEPT characters), its arguments (cut as a rejected call's are), `call` 0 (no tool's n-th
 * call: no counter is kept for a name the client made up) and the 404 problem as its result. So a call of
 * a tool a notice advertises shows in the journal. `view`: the domain's name, or undefined for the combined
 * view (journaled under the domain `combined`). `failure`: the problem answered (errors.ts unknownToolCall).
 */
export function journalUnknownTool(
  app: FastifyInstance,
  session: Session,
  failure: ProblemError,
  view: string | undefined,
  name: string,
  args: unknown,
  argsBytes?: number,
): void {
  const text = JSON.stringify(args ?? null) ?? 'null';
  const tool = name.length > UNKNOWN_NAME_KEPT ? name.slice(0, UNKNOWN_NAME_KEPT) : name;
  journalCall(app.sessions, session, {
    at: session.clock.tick(),
    domain: view ?? 'combined',
    tool,
    call: 0,
    args,
    status: failure.problem.status,
    result: undefined,
    problem: failure.problem,
    changes: NONE,
    hazards: NONE,
    argsBytes: argsBytes ?? text.length,
    argsText: text,
    cutArgs: true,
    answerBytes: tool.length + JSON.stringify(failure.problem).length,
  });
}
