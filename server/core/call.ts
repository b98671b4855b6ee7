import type { Domain } from '../../domains/domain.js';
import { type AnyTool, IDEMPOTENCY_KEY } from '../../domains/tool.js';
import { API_VERSION_HEADER, DOCUMENTED_VERSION } from '../../hazards/versions.js';
import { withoutOptionalNulls } from '../../lib/optional-nulls.js';
import { type CallDependencies, type CallExecutor, type CallOutcome, type PipelineCall, runCall } from './pipeline.js';
import { invalidInput, type Problem, ProblemError, problem, refusalOf } from './problem.js';
import { fingerprint } from './sessions/idempotency.js';
import type { Session } from './sessions/session.js';

/** A built-in tool's call on its way through the pipeline: what it gave is the tool's own result. */
type ToolCall = PipelineCall<AnyTool, unknown, never>;

/**
 * A built-in tool's call: the call pipeline (server/core/pipeline.ts) with the tool's executor, which validates
 * the arguments and runs the tool against the session's database (all writes or none).
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
  return runCall(deps, session, TOOL, domain.name, tool, args, argsBytes);
}

/** How a built-in tool's call is carried out: one object for every call, so the hot path allocates nothing more. */
const TOOL: CallExecutor<AnyTool, unknown> = {
  hazardSession: (session) => session,
  // Hazards and validation take a null optional argument as absent (strict clients send it); the journal keeps `args` as sent.
  taken: (tool, args) => withoutOptionalNulls(tool.input, args),
  headers: () => ({ [API_VERSION_HEADER]: DOCUMENTED_VERSION }),
  validate(call, args) {
    const { tool } = call;
    // Again after the hazards: a renamed parameter (spec drift) may carry a null under its listed name.
    const taken = withoutOptionalNulls(tool.input, args);
    const parsed = tool.input.safeParse(taken);
    // zod's compiled fast path is lost with reportInput: ask for the input only to explain a failure.
    if (!parsed.success) throw new ProblemError(invalidInput(refusalOf(tool.input, taken)!));
    return parsed.data;
  },
  run(call, validated) {
    const { tool, session } = call;
    const args = validated as Record<string, unknown>;
    const at = call.at;
    const ctx = { session: session.id, now: () => new Date(at), compat: session.compat };
    const state = session.domain(call.domain);
    const replayed = tool.mutates ? replay(call, args) : undefined;
    if (replayed) return replayed.result;
    if (!tool.mutates) return state.read((tables) => tool.run(args, tables, ctx));
    const { result, changes, revert } = state.transact((tables) => tool.run(args, tables, ctx));
    call.changes = changes;
    call.revert = revert;
    call.committed = changes.length > 0;
    return result;
  },
  succeeded: () => true,
  data: (result) => result,
  answer: (call, _result, body) => call.finish(200, body, call.context.headers),
  journaled: (args) => args,
  cutsRejectedArgs: true,
  problem: (_status, body) => body as Problem,
  request: () => undefined,
  bug: { log: 'tool call failed', detail: 'The server failed to complete the call; it has been logged.' },
};

/**
 * A write sent with an idempotency key: the first call under the key runs; a later one to the same tool
 * with the same arguments gets the first one's result without writing; with other arguments, or to
 * another tool (a key names one request in the whole session), it is refused. A key is kept a day of
 * session time (server/core/sessions/idempotency.ts); after that the call is a new operation.
 */
function replay(call: ToolCall, args: Record<string, unknown>): { result: unknown } | undefined {
  const key = args[IDEMPOTENCY_KEY];
  if (typeof key !== 'string') return undefined;
  const seen = call.session.idempotency.get(key, call.at);
  call.idempotency = { key };
  if (!seen) return undefined;
  const sameTool = seen.domain === call.domain && seen.tool === call.tool.name;
  if (!sameTool || seen.fingerprint !== fingerprint(call.args)) {
    const other = sameTool ? 'with other arguments' : 'for another request';
    throw new ProblemError(
      problem(422, 'idempotency_key_reused', `The idempotency_key '${key}' was already used ${other} (call ${seen.seq}); use a new key for a new operation.`, {
        field: IDEMPOTENCY_KEY,
      }),
    );
  }
  call.idempotency = { key, replayed: seen.seq };
  return { result: seen.result };
}
