import { type CallDependencies, type CallExecutor, type CallOutcome, type PipelineCall, runCall } from '../core/pipeline.js';
import { type Problem, problem } from '../core/problem.js';
import type { Change } from '../core/data/overlay.js';
import type { JournalEntry } from '../core/sessions/journal.js';
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
  /** The raw answer's text, when the transport has it (what the journal counts, not made again from the result). */
  text?: string;
  /** What the call changed in the session's records (a mock's write), and how to take it back. */
  wrote?: { changes: readonly Change[]; revert: () => void } | undefined;
  /** The idempotency key a mock's write carried, and the call it replayed instead of writing. */
  idempotency?: { key: string; replayed?: number } | undefined;
}

/**
 * What a proxied call came to, as a tool call's outcome, where `passthrough` is the upstream's answer untouched
 * and `result` one a hazard reshaped; `sent` is the upstream's answer, when it was reached.
 */
export type ProxyOutcome<Raw> = CallOutcome<'passthrough'> & { sent?: Sent<Raw> };

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
 * A proxied call: the call pipeline (server/core/pipeline.ts) with the upstream's executor, which validates
 * nothing (that is the upstream's job), sends the call, and passes the upstream's answer through untouched
 * unless a hazard changed it; after-call hazards apply to a success only.
 */
export async function proxyCall<Raw>(deps: CallDependencies, call: ProxiedCall<Raw>): Promise<ProxyOutcome<Raw>> {
  const executor = new Upstream(call);
  const outcome = await runCall(deps, call.session, executor, call.proxy, call.tool, call.args);
  return executor.sent ? { ...outcome, sent: executor.sent } : outcome;
}

/** How one proxied call is carried out: made for the call, it keeps what the upstream answered. */
class Upstream<Raw> implements CallExecutor<ProxyTool, Sent<Raw>, 'passthrough'> {
  /** What the upstream answered, once it did. */
  sent: Sent<Raw> | undefined;
  readonly cutsRejectedArgs = false;
  readonly bug = { log: 'proxied call failed', detail: 'The proxy failed to complete the call; it has been logged.' };

  constructor(private readonly call: ProxiedCall<Raw>) {}

  hazardSession(session: Session) {
    return proxyView(session).hazards;
  }

  taken(_tool: ProxyTool, args: unknown): unknown {
    return args;
  }

  headers(): Record<string, string> {
    return {};
  }

  async run(call: PipelineCall<ProxyTool, Sent<Raw>, 'passthrough'>, args: unknown): Promise<Sent<Raw>> {
    this.sent = await this.call.send(args as Record<string, unknown>, args !== this.call.args);
    if (this.sent.idempotency) call.idempotency = this.sent.idempotency;
    if (this.sent.wrote) {
      // Journaled (and kept by a persisted session) even when a hazard then drops the answer.
      call.changes = this.sent.wrote.changes;
      call.revert = this.sent.wrote.revert;
      call.committed = true;
    }
    return this.sent;
  }

  succeeded(sent: Sent<Raw>): boolean {
    return sent.ok;
  }

  data(sent: Sent<Raw>): unknown {
    return sent.result;
  }

  /** The upstream's answer untouched (passthrough), unless a hazard changed a success or the proxy cut it: then a result, as JSON. */
  answer(call: PipelineCall<ProxyTool, Sent<Raw>, 'passthrough'>, sent: Sent<Raw>, body: unknown): CallOutcome<'passthrough'> {
    const headers = call.context.headers;
    if (!sent.ok || (body === sent.result && !sent.rewritten)) return call.finish(sent.status, body, headers, sent.text ?? textOf(body), 'passthrough');
    return call.finish(sent.status, body, headers, JSON.stringify(body) ?? 'null', 'result');
  }

  /** Redacted arguments are kept whole, whatever the answer. */
  journaled(args: unknown): unknown {
    return redacted(args as Record<string, unknown>);
  }

  problem(status: number, body: unknown): Problem {
    return asProblem(status, body);
  }

  request(): JournalEntry['proxy'] {
    return { ...this.call.request, ...(this.sent ? { upstream_status: this.sent.status } : {}) };
  }
}

/** An answer that is not a success, as the journal's problem: the upstream's own problem JSON, or one describing it. */
function asProblem(status: number, body: unknown): Problem {
  if (isObject(body) && typeof (body as Problem).status === 'number') return body as Problem;
  const text = typeof body === 'string' ? body : JSON.stringify(body ?? null);
  return { ...problem(status || 502, 'upstream_error', text.slice(0, 2048)), body };
}

const textOf = (value: unknown): string => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));
