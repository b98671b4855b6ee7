import type { CallContext, HazardSession } from '../../hazards/call-context.js';
import type { HazardEngineApi } from '../../hazards/engine-api.js';
import { damage, type Fault, HazardFault } from '../../hazards/fault.js';
import type { HazardTool } from '../../hazards/kind.js';
import { jsonText } from '../../lib/json-text.js';
import { acknowledged, refuse } from './acknowledged.js';
import type { Change } from './data/overlay.js';
import { journalCall } from './journal-entry.js';
import { type Problem, ProblemError, problem, toProblem } from './problem.js';
import { type JournalEntry, NONE } from './sessions/journal.js';
import type { Session } from './sessions/session.js';
import type { SessionStore } from './sessions/store.js';

/**
 * What a call came to, in a form no transport owns: the tool's result, a problem (a broken rule or bad
 * arguments), or a hazard's fault (and what an executor adds, `Also`: a proxied upstream's untouched answer).
 * REST renders it as an HTTP answer, MCP as a tool result or error.
 */
export interface CallOutcome<Also extends string = never> {
  kind: 'result' | 'problem' | 'fault' | Also;
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
 * How a call is carried out, for the one pipeline every call walks: a built-in tool against the session's
 * database (`callTool`, server/core/call.ts), or a call proxied to a user's upstream (server/proxy/call.ts).
 * `Ran` is what running the call gave; `Also`, the kinds of outcome the executor adds.
 */
export interface CallExecutor<Tool extends HazardTool, Ran, Also extends string = never> {
  /** The session as hazards see it. */
  hazardSession(session: Session): HazardSession;
  /** The arguments hazards read, from those sent. */
  taken(tool: Tool, args: unknown): unknown;
  /** A new call's answer headers, before hazards add theirs. */
  headers(): Record<string, string>;
  /** Checks the arguments as hazards left them and returns what `run` receives (a ProblemError if they are wrong); absent: no validation. */
  validate?(call: PipelineCall<Tool, Ran, Also>, args: unknown): unknown;
  /** Runs the call; a write records on `call` what it changed. */
  run(call: PipelineCall<Tool, Ran, Also>, args: unknown): Ran | Promise<Ran>;
  /** Whether the after-call hazards apply to what the call gave (a success). */
  succeeded(ran: Ran): boolean;
  /** What the call gave as data: what after-call hazards read. */
  data(ran: Ran): unknown;
  /** The answer, from `body`: the data as the after-call hazards left it, or untouched when they did not apply. */
  answer(call: PipelineCall<Tool, Ran, Also>, ran: Ran, body: unknown): CallOutcome<Also>;
  /** What the journal keeps of the arguments as sent. */
  journaled(args: unknown): unknown;
  /** Whether the journal keeps only the start of a refused call's large arguments (REJECTED_ARGS_KEPT). */
  readonly cutsRejectedArgs: boolean;
  /** An answer that is not a success, as the journal's problem. */
  problem(status: number, body: unknown): Problem;
  /** What the journal records of a proxied request (`proxy`), if anything. */
  request(call: PipelineCall<Tool, Ran, Also>): JournalEntry['proxy'] | undefined;
  /** What a bug is logged as, and the detail of the 500 that answers it. */
  readonly bug: { readonly log: string; readonly detail: string };
}

/**
 * The one path every call walks: before-call hazards, validation (where the executor validates), the run
 * (the tool against the session's database, all writes or none, or the upstream), after-call hazards on a
 * success, the journal, the acknowledgement. A stage that answers synchronously costs no tick, so a built-in
 * tool's call no hazard touches completes without awaiting.
 */
export function runCall<Tool extends HazardTool, Ran, Also extends string>(
  deps: CallDependencies,
  session: Session,
  executor: CallExecutor<Tool, Ran, Also>,
  domain: string,
  tool: Tool,
  args: unknown,
  /** The size of the arguments as sent (the body's length), when known. */
  argsBytes?: number,
): CallOutcome<Also> | Promise<CallOutcome<Also>> {
  const outcome = new PipelineCall(deps, session, executor, domain, tool, args, argsBytes).start();
  return outcome instanceof Promise ? outcome.then((done) => acknowledged(deps, done)) : acknowledged(deps, outcome);
}

/** What a REST client receives of a hazard's fault: the foreign answer, the damaged text, or nothing (status 0). */
function faultAnswer(fault: Fault): { status: number; body: unknown; headers: Record<string, string>; text: string } {
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

/** One call on its way through the pipeline; what its executor's stages read and record. */
export class PipelineCall<Tool extends HazardTool, Ran, Also extends string> {
  private readonly started = performance.now();
  readonly at: number;
  readonly context: CallContext;
  /** What the run changed (a write), and how to take it back. */
  changes: readonly Change[] = NONE;
  revert: () => void = () => undefined;
  /** True once a write committed: a failure after that point still wrote. */
  committed = false;
  idempotency: JournalEntry['idempotency'];
  /** What the run gave, once it ran. */
  ran: Ran | undefined;

  constructor(
    private readonly deps: CallDependencies,
    readonly session: Session,
    private readonly executor: CallExecutor<Tool, Ran, Also>,
    readonly domain: string,
    readonly tool: Tool,
    /** The arguments as sent. */
    readonly args: unknown,
    private readonly argsBytes: number | undefined,
  ) {
    this.at = session.clock.tick();
    const taken = executor.taken(tool, args);
    this.context = {
      session: executor.hazardSession(session),
      domain,
      tool,
      call: session.countCall(domain, tool.name),
      at: this.at,
      args: taken,
      events: [],
      headers: executor.headers(),
    };
  }

  start(): CallOutcome<Also> | Promise<CallOutcome<Also>> {
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

  /** Validation and the run. */
  private execute(): CallOutcome<Also> | Promise<CallOutcome<Also>> {
    const { executor } = this;
    let ran: Ran | Promise<Ran>;
    try {
      const args = this.context.args ?? {};
      ran = executor.run(this, executor.validate ? executor.validate(this, args) : args);
    } catch (error) {
      return this.fail(error);
    }
    return ran instanceof Promise
      ? ran.then(
          (done) => this.answer(done),
          (error: unknown) => this.fail(error),
        )
      : this.answer(ran);
  }

  /** The after-call stage, on a success, then the answer. */
  private answer(ran: Ran): CallOutcome<Also> | Promise<CallOutcome<Also>> {
    const { executor } = this;
    try {
      this.ran = ran;
      const data = executor.data(ran);
      if (!executor.succeeded(ran)) return executor.answer(this, ran, data);
      const after = this.deps.hazards.after(this.context, data);
      if (after instanceof Promise)
        return after.then(
          (body) => executor.answer(this, ran, body),
          (error: unknown) => this.fail(error),
        );
      return executor.answer(this, ran, after);
    } catch (error) {
      return this.fail(error);
    }
  }

  private fail(error: unknown): CallOutcome<Also> {
    if (error instanceof HazardFault) return this.faulted(error.fault);
    const failure = toProblem(error) ?? this.internalError(error);
    return this.finish(failure.problem.status, failure.problem, { ...this.context.headers, ...failure.headers });
  }

  /** A bug, not a client mistake: logged with its stack, journaled, answered as a 500. */
  private internalError(error: unknown): ProblemError {
    this.deps.log?.error({ err: error }, this.executor.bug.log);
    return new ProblemError(problem(500, 'internal_error', this.executor.bug.detail));
  }

  /** A hazard's answer: journaled with what a REST client received (status 0: no HTTP answer at all). */
  private faulted(fault: Fault): CallOutcome<Also> {
    const { status, body, headers, text } = faultAnswer(fault);
    return { ...this.finish(status, body, headers, text), kind: 'fault', fault };
  }

  /** Journals the call and returns its outcome: a result or a problem by its status, unless the executor names its kind. */
  finish(status: number, body: unknown, headers: Record<string, string>, text = jsonText(body), kind?: CallOutcome<Also>['kind']): CallOutcome<Also> {
    const { session, context, executor } = this;
    const ok = status >= 200 && status < 400;
    // A write that committed before its answer was lost (or broke) still wrote: its changes and result are journaled.
    const changes = ok || this.committed ? this.changes : NONE;
    const args = executor.journaled(this.args);
    const entry = journalCall(this.deps.sessions, session, {
      at: this.at,
      domain: this.domain,
      tool: this.tool.name,
      call: context.call,
      args,
      status,
      result: ok ? body : this.committed ? executor.data(this.ran as Ran) : undefined,
      problem: ok ? undefined : executor.problem(status, body),
      idempotency: this.idempotency,
      changes,
      hazards: context.events,
      proxy: executor.request(this),
      started: this.started,
      argsBytes: this.argsBytes ?? JSON.stringify(args ?? null).length,
      cutArgs: !ok && executor.cutsRejectedArgs,
      answerBytes: text.length + (changes.length > 0 ? changesSize(changes) : 0),
      undo: changes.length > 0 ? (entry, error) => refuse(session, entry, this.revert, error) : undefined,
    });
    return { kind: kind ?? (ok ? 'result' : 'problem'), status, body, text, headers, entry };
  }
}

/** The size of a call's changes as JSON, from their records' own texts (which later reads of them reuse). */
function changesSize(changes: readonly Change[]): number {
  let bytes = 2;
  for (const change of changes) bytes += 30 + change.table.length + change.id.length + jsonText(change.value).length;
  return bytes;
}
