import type { CallContext } from '../../hazards/call-context.js';
import { HazardFault } from '../../hazards/fault.js';
import { acknowledged, type CallDependencies, type CallOutcome, faultAnswer } from '../core/call.js';
import { journalCall } from '../core/journal-entry.js';
import { type Problem, ProblemError, problem, toProblem } from '../core/problem.js';
import { type JournalEntry, NONE } from '../core/sessions/journal.js';
import type { Session } from '../core/sessions/session.js';
import { redacted } from './redact.js';
import { proxyView } from './state.js';
import type { ProxyTool } from './upstream.js';
import { isObject } from '../../lib/object.js';

/** What the upstream answered a proxied call, as the pipeline needs it. */
export interface Sent<Raw> {
  /** A success (2xx): its result passes the after-call hazards. */
  ok: boolean;
  status: number;
  /** The answer as data (parsed JSON, the text, or null for none): what hazards read and the journal keeps. */
  result: unknown;
  /** The answer as the transport received it, returned untouched when no hazard changes it. */
  raw: Raw;
  /** The result is not the raw answer (the rest of a page the proxy cut): it is sent as data. */
  rewritten?: boolean;
}

/**
 * What a proxied call came to, as a tool call's outcome, where `passthrough` is the upstream's answer untouched
 * and `result` one a hazard reshaped; `sent` is the upstream's answer, when it was reached.
 */
export type ProxyOutcome<Raw> = Omit<CallOutcome, 'kind'> & { kind: 'passthrough' | 'result' | 'problem' | 'fault'; sent?: Sent<Raw> };

export interface ProxiedCall<Raw> {
  session: Session;
  /** The proxy's name: the hazard domain of its operations. */
  proxy: string;
  tool: ProxyTool;
  /** The call's arguments: path, query and body members (HTTP), or the tool's arguments (MCP). */
  args: Record<string, unknown>;
  /** What the journal records of the request (its path with secrets redacted). */
  request: { method: string; path: string };
  /** Sends the call with the arguments as hazards left them (`changed`: a hazard rewrote them). */
  send(args: Record<string, unknown>, changed: boolean): Promise<Sent<Raw>>;
}

/**
 * The one path every proxied call walks, as tool calls walk theirs: before-call hazards, the upstream,
 * after-call hazards on a success, the journal. Nothing is validated here: that is the upstream's job.
 */
export async function proxyCall<Raw>(deps: CallDependencies, call: ProxiedCall<Raw>): Promise<ProxyOutcome<Raw>> {
  const started = performance.now();
  const { session, tool } = call;
  const context: CallContext = {
    session: proxyView(session).hazards,
    domain: call.proxy,
    tool,
    call: session.countCall(call.proxy, tool.name),
    at: session.clock.tick(),
    args: call.args,
    events: [],
    headers: {},
  };
  let sent: Sent<Raw> | undefined;
  let outcome: Omit<ProxyOutcome<Raw>, 'entry'>;
  try {
    const stopped = await deps.hazards.before(context);
    if (stopped) throw stopped;
    const args = (context.args ?? {}) as Record<string, unknown>;
    sent = await call.send(args, args !== call.args);
    if (!sent.ok) outcome = { kind: 'passthrough', status: sent.status, body: sent.result, text: textOf(sent.result), headers: context.headers, sent };
    else {
      const after = await deps.hazards.after(context, sent.result);
      outcome =
        after === sent.result && !sent.rewritten
          ? { kind: 'passthrough', status: sent.status, body: after, text: textOf(after), headers: context.headers, sent }
          : { kind: 'result', status: sent.status, body: after, text: JSON.stringify(after) ?? 'null', headers: context.headers, sent };
    }
  } catch (error) {
    outcome = failed(deps, error, context, sent);
  }
  const entry = journal(deps, call, context, outcome, started);
  return acknowledged(deps, { ...outcome, entry });
}

function failed<Raw>(deps: CallDependencies, error: unknown, context: CallContext, sent: Sent<Raw> | undefined): Omit<ProxyOutcome<Raw>, 'entry'> {
  if (error instanceof HazardFault) {
    const { status, body, headers, text } = faultAnswer(error.fault);
    return { kind: 'fault', status, body, text, headers: { ...context.headers, ...headers }, fault: error.fault, ...(sent ? { sent } : {}) };
  }
  let failure = toProblem(error);
  if (!failure) {
    deps.log?.error({ err: error }, 'proxied call failed');
    failure = new ProblemError(problem(500, 'internal_error', 'The proxy failed to complete the call; it has been logged.'));
  }
  const body = failure.problem;
  return {
    kind: 'problem',
    status: body.status,
    body,
    text: JSON.stringify(body),
    headers: { ...context.headers, ...failure.headers },
    ...(sent ? { sent } : {}),
  };
}

function journal<Raw>(
  deps: CallDependencies,
  call: ProxiedCall<Raw>,
  context: CallContext,
  outcome: Omit<ProxyOutcome<Raw>, 'entry'>,
  started: number,
): JournalEntry {
  const ok = outcome.status >= 200 && outcome.status < 400;
  const args = redacted(call.args);
  return journalCall(deps.sessions, call.session, {
    at: context.at,
    domain: call.proxy,
    tool: call.tool.name,
    call: context.call,
    args,
    status: outcome.status,
    result: ok ? outcome.body : undefined,
    problem: ok ? undefined : asProblem(outcome.status, outcome.body),
    changes: NONE,
    hazards: context.events,
    proxy: { ...call.request, ...(outcome.sent ? { upstream_status: outcome.sent.status } : {}) },
    started,
    // Redacted arguments are kept whole, whatever the answer.
    argsBytes: JSON.stringify(args).length,
    cutArgs: false,
    answerBytes: outcome.text.length,
  });
}

/** An answer that is not a success, as the journal's problem: the upstream's own problem JSON, or one describing it. */
function asProblem(status: number, body: unknown): Problem {
  if (isObject(body) && typeof (body as Problem).status === 'number') return body as Problem;
  const text = typeof body === 'string' ? body : JSON.stringify(body ?? null);
  return { ...problem(status || 502, 'upstream_error', text.slice(0, 2048)), body };
}

const textOf = (value: unknown): string => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));
