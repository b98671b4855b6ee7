import type { Domain } from '../../domains/domain.js';
import { type AnyTool, IDEMPOTENCY_KEY } from '../../domains/tool.js';
import type { CallContext } from '../../hazards/call-context.js';
import type { HazardEngineApi } from '../../hazards/engine-api.js';
import { damage, type Fault, HazardFault } from '../../hazards/fault.js';
import { API_VERSION_HEADER, DOCUMENTED_VERSION } from '../../hazards/versions.js';
import { jsonText } from '../../lib/json-text.js';
import { withoutOptionalNulls } from '../../lib/optional-nulls.js';
import type { Change } from './data/overlay.js';
import { invalidInput, type Problem, ProblemError, problem, refusalOf, toProblem } from './problem.js';
import { journalCall } from './journal-entry.js';
import { fingerprint } from './sessions/idempotency.js';
import { type JournalEntry, NONE } from './sessions/journal.js';
import type { Session } from './sessions/session.js';
import { notPersisted, PERSISTENCE_FAILED, type SessionStore } from './sessions/store.js';

/**
 * What a call came to, in a form no transport owns: the tool's result, a problem (a broken rule or bad
 * arguments), or a hazard's fault. REST renders it as an HTTP answer, MCP as a tool result or error.
 */
export interface CallOutcome {
  kind: 'result' | 'problem' | 'fault';
  /** The HTTP status a REST client receives (0 when the connection fails without an answer). */
  status: number;
  /** The response body: the tool's result, or a problem. */
  body: unknown;
  /** The body as JSON text (serialized once, for the reply and the journal's accounting). */
  text: string;
  headers: Record<string, string>;
  entry: JournalEntry;
  /** When a hazard answers instead of the API: an answer in another server's style, or a fault of the connection. */
  fault?: Fault;
}

export interface CallDependencies {
  sessions: SessionStore;
  hazards: HazardEngineApi;
  log?: { error(details: object, message: string): void };
}

/**
 * The one path every tool call walks: before-call hazards, validation, the tool against the
 * session's database (all writes or none), after-call hazards, journal. A stage that answers
 * synchronously costs no tick, so a call no hazard touches completes without awaiting.
 */
export function callTool(
  deps: CallDependencies,
  session: Session,
  domain: Domain,
  tool: AnyTool,
  args: unknown,
  /** The size of the arguments as sent (the body's length), when known. */
  argsBytes?: number,
): CallOutcome | Promise<CallOutcome> {
  const outcome = new ToolCall(deps, session, domain, tool, args, argsBytes).start();
  return outcome instanceof Promise ? outcome.then((done) => acknowledged(deps, done)) : acknowledged(deps, outcome);
}

/** What a REST client receives of a hazard's fault: the foreign answer, the damaged text, or nothing (status 0). */
export function faultAnswer(fault: Fault): { status: number; body: unknown; headers: Record<string, string>; text: string } {
  if (fault.type === 'http') {
    const body = fault.document ?? (fault.contentType.includes('json') ? JSON.parse(fault.body) : fault.body);
    return { status: fault.status, body, headers: fault.headers ?? {}, text: fault.body };
  }
  if ('answer' in fault) {
    const text = damage(JSON.stringify(fault.answer), fault);
    return { status: 200, body: text, headers: {}, text };
  }
  return { status: 0, body: '', headers: {}, text: '' };
}

/**
 * With DATA_DIR, a call is answered only once its journal record is durable. A write whose record could
 * not be written was taken back (its entry says so) and is answered 503; a read changed nothing durable,
 * so it is answered, and its record is written with the log's next success. While the log is failing,
 * reads do not wait for it.
 */
export function acknowledged<O extends Omit<CallOutcome, 'kind'> & { kind: string }>(deps: CallDependencies, outcome: O): O | Promise<O> {
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
function refuse(session: Session, entry: JournalEntry, revert: () => void, error: Error): void {
  revert();
  session.idempotency.forget(entry);
  const refusal = notPersisted(error).problem;
  entry.status = refusal.status;
  entry.problem = refusal;
  entry.result = undefined;
  entry.changes = NONE;
  if (entry.hazards.some((event) => event.committed)) entry.hazards = entry.hazards.map((event) => (event.committed ? { ...event, committed: false } : event));
}

class ToolCall {
  private readonly started = performance.now();
  private readonly at: number;
  private readonly context: CallContext;
  private changes: readonly Change[] = NONE;
  /** Takes the committed changes back. */
  private revert: () => void = () => undefined;
  /** The tool's own result, once it ran. */
  private result: unknown;
  /** True once a write committed: a failure after that point still wrote. */
  private committed = false;
  private idempotency: JournalEntry['idempotency'];

  constructor(
    private readonly deps: CallDependencies,
    private readonly session: Session,
    private readonly domain: Domain,
    private readonly tool: AnyTool,
    private readonly args: unknown,
    private readonly argsBytes: number | undefined,
  ) {
    this.at = session.clock.tick();
    // Hazards and validation take a null optional argument as absent (strict clients send it); the journal keeps `args` as sent.
    const taken = withoutOptionalNulls(tool.input, args);
    this.context = {
      session,
      domain: domain.name,
      tool,
      call: session.countCall(domain.name, tool.name),
      at: this.at,
      args: taken,
      events: [],
      headers: { [API_VERSION_HEADER]: DOCUMENTED_VERSION },
    };
  }

  start(): CallOutcome | Promise<CallOutcome> {
    let before: void | HazardFault | Promise<void>;
    try {
      before = this.deps.hazards.before(this.context);
    } catch (error) {
      return this.fail(error);
    }
    if (before instanceof HazardFault) return this.faulted(before.fault);
    return before
      ? before.then(
          () => this.execute(),
          (error: unknown) => this.fail(error),
        )
      : this.execute();
  }

  /** Validation, the tool itself, then the after-call stage. */
  private execute(): CallOutcome | Promise<CallOutcome> {
    const { tool, session, context } = this;
    let result: unknown;
    try {
      // Again after the hazards: a renamed parameter (spec drift) may carry a null under its listed name.
      const args = withoutOptionalNulls(tool.input, context.args ?? {});
      const parsed = tool.input.safeParse(args);
      // zod's compiled fast path is lost with reportInput: ask for the input only to explain a failure.
      if (!parsed.success) throw new ProblemError(invalidInput(refusalOf(tool.input, args)!));
      const at = this.at;
      const ctx = { session: session.id, now: () => new Date(at), compat: session.compat };
      const state = session.domain(this.domain.name);
      const replayed = tool.mutates ? this.replay(parsed.data) : undefined;
      if (replayed) result = replayed.result;
      else if (tool.mutates) {
        ({ result, changes: this.changes, revert: this.revert } = state.transact((tables) => tool.run(parsed.data, tables, ctx)));
        this.committed = this.changes.length > 0;
      } else result = state.read((tables) => tool.run(parsed.data, tables, ctx));
      this.result = result;
      const after = this.deps.hazards.after(context, result);
      if (after instanceof Promise)
        return after.then(
          (body) => this.finish(200, body, context.headers),
          (error: unknown) => this.fail(error),
        );
      return this.finish(200, after, context.headers);
    } catch (error) {
      return this.fail(error);
    }
  }

  /**
   * A write sent with an idempotency key: the first call under the key runs; a later one to the same tool
   * with the same arguments gets the first one's result without writing; with other arguments, or to
   * another tool (a key names one request in the whole session), it is refused. A key is kept a day of
   * session time (server/core/sessions/idempotency.ts); after that the call is a new operation.
   */
  private replay(args: Record<string, unknown>): { result: unknown } | undefined {
    const key = args[IDEMPOTENCY_KEY];
    if (typeof key !== 'string') return undefined;
    const seen = this.session.idempotency.get(key, this.at);
    this.idempotency = { key };
    if (!seen) return undefined;
    const sameTool = seen.domain === this.domain.name && seen.tool === this.tool.name;
    if (!sameTool || seen.fingerprint !== fingerprint(this.args)) {
      const other = sameTool ? 'with other arguments' : 'for another request';
      throw new ProblemError(
        problem(
          422,
          'idempotency_key_reused',
          `The idempotency_key '${key}' was already used ${other} (call ${seen.seq}); use a new key for a new operation.`,
          {
            field: IDEMPOTENCY_KEY,
          },
        ),
      );
    }
    this.idempotency = { key, replayed: seen.seq };
    return { result: seen.result };
  }

  private fail(error: unknown): CallOutcome {
    if (error instanceof HazardFault) return this.faulted(error.fault);
    const failure = toProblem(error) ?? this.internalError(error);
    return this.finish(failure.problem.status, failure.problem, { ...this.context.headers, ...failure.headers });
  }

  /** A bug, not a client mistake: logged with its stack, journaled, answered as a 500. */
  private internalError(error: unknown): ProblemError {
    this.deps.log?.error({ err: error }, 'tool call failed');
    return new ProblemError(problem(500, 'internal_error', 'The server failed to complete the call; it has been logged.'));
  }

  /** A hazard's answer: journaled with what a REST client received (status 0: no HTTP answer at all). */
  private faulted(fault: Fault): CallOutcome {
    const { status, body, headers, text } = faultAnswer(fault);
    return { ...this.finish(status, body, headers, text), kind: 'fault', fault };
  }

  private finish(status: number, body: unknown, headers: Record<string, string>, text = jsonText(body)): CallOutcome {
    const { session, context } = this;
    const ok = status >= 200 && status < 400;
    // A write that committed before its answer was lost (or broke) still wrote: its changes and result are journaled.
    const changes = ok || this.committed ? this.changes : NONE;
    const entry = journalCall(this.deps.sessions, session, {
      at: this.at,
      domain: this.domain.name,
      tool: this.tool.name,
      call: context.call,
      args: this.args,
      status,
      result: ok ? body : this.committed ? this.result : undefined,
      problem: ok ? undefined : (body as Problem),
      idempotency: this.idempotency,
      changes,
      hazards: context.events,
      started: this.started,
      argsBytes: this.argsBytes ?? JSON.stringify(this.args ?? null).length,
      cutArgs: !ok,
      answerBytes: text.length + (changes.length > 0 ? changesSize(changes) : 0),
      undo: changes.length > 0 ? (entry, error) => refuse(session, entry, this.revert, error) : undefined,
    });
    return { kind: ok ? 'result' : 'problem', status, body, text, headers, entry };
  }
}

/** The size of a call's changes as JSON, from their records' own texts (which later reads of them reuse). */
function changesSize(changes: readonly Change[]): number {
  let bytes = 2;
  for (const change of changes) bytes += 30 + change.table.length + change.id.length + jsonText(change.value).length;
  return bytes;
}
