import type { CallOutcome } from '../core/pipeline.js';
import { connectionErrorText } from '../core/mcp/render.js';
import { PROBLEM_CONTENT_TYPE, type ProblemError } from '../core/problem.js';
import { JSON_TYPE } from '../core/reply.js';
import type { Observation } from './protocol.js';

/** What a step observes of a tool call: the HTTP answer as a client receives it, its JSON, and the call's failure if any. */
export type CallView = Pick<Observation, 'response' | 'result' | 'error'>;

/** A call's outcome as the REST route would have sent it. */
export function callView(outcome: CallOutcome): CallView {
  const { fault } = outcome;
  if (fault?.type === 'transport') {
    const error = { error_type: 'transport_error' as const, message: connectionErrorText(fault) };
    // A reset or an empty reply carries no answer; a damaged one arrives cut short or broken under a 200.
    if (!('answer' in fault)) return { response: null, result: null, error };
    const response = { status: 200, headers: { ...fault.headers, 'content-type': JSON_TYPE }, body: outcome.text };
    return { response, result: null, error };
  }
  const type = fault ? wireType(fault.contentType) : outcome.status < 400 ? JSON_TYPE : PROBLEM_CONTENT_TYPE;
  // The pipeline already holds the body as a value: a JSON answer's is its parse (another server's plain page is text, not JSON).
  const result = /json/i.test(type) ? outcome.body : null;
  return answerView(outcome.status, { ...outcome.headers, ...fault?.headers, 'content-type': type }, outcome.text, result);
}

/** A content type as the REST route sends it: Fastify adds charset=utf-8 to a JSON type that names no charset. */
const wireType = (type: string) => (/json/i.test(type.split(';')[0]!) && !/;\s*charset=/i.test(type) ? `${type}; charset=utf-8` : type);

/** A problem the API answered without running the tool (an unknown tool). */
export function problemView(failure: ProblemError): CallView {
  return answerView(failure.problem.status, { ...failure.headers, 'content-type': PROBLEM_CONTENT_TYPE }, JSON.stringify(failure.problem), failure.problem);
}

function answerView(status: number, headers: Record<string, string>, body: string, result: unknown): CallView {
  if (status < 400) return { response: { status, headers, body }, result, error: null };
  const detail =
    result && typeof result === 'object' && typeof (result as { detail?: unknown }).detail === 'string' ? (result as { detail: string }).detail : undefined;
  const code = result && typeof result === 'object' ? (result as { code?: unknown }).code : undefined;
  const error_type =
    code === 'unknown_tool' ? 'tool_not_found' : code === 'invalid_input' ? 'invalid_args' : status === 504 || status === 408 ? 'timeout' : 'execution_error';
  return { response: { status, headers, body }, result, error: { error_type, message: detail ?? `HTTP ${status}: ${body.slice(0, 200)}` } };
}
