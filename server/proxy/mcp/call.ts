import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type CallToolResult, CallToolResultSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { CallDependencies } from '../../core/pipeline.js';
import { type ProblemError, problemError } from '../../core/problem.js';
import type { Session } from '../../core/sessions/session.js';
import { type ProxyOutcome, proxyCall, type Sent } from '../call.js';
import { checkDepth, jsonOrText } from '../answer.js';
import { fromOffset, PAGE_TOKEN, pageToken } from '../pages.js';
import type { McpTool } from './tools.js';

/** The journal's status of an upstream tool error (`isError`): the upstream refused the call. */
export const TOOL_ERROR_STATUS = 422;

export interface UpstreamTarget {
  readonly name: string;
  readonly client: Client;
  readonly timeoutMs: number;
}

/**
 * One tools/call through the proxy's pipeline: the upstream tool is called (under its original name)
 * with the arguments as hazards left them, and its result is what after-call hazards read.
 */
export function callUpstream(
  deps: CallDependencies,
  upstream: UpstreamTarget,
  session: Session,
  tool: McpTool,
  args: Record<string, unknown>,
): Promise<ProxyOutcome<CallToolResult>> {
  const send = async (sent: Record<string, unknown>): Promise<Sent<CallToolResult>> => {
    // A page token of the proxy's (a truncated answer's) is served from the upstream's full answer.
    const offset = pageToken.offset(sent[PAGE_TOKEN]);
    const { [PAGE_TOKEN]: token, ...rest } = sent;
    const forwarded = pageToken.ours(token) ? rest : sent;
    let raw: CallToolResult;
    try {
      raw = (await upstream.client.request({ method: 'tools/call', params: { name: tool.listed.name, arguments: forwarded } }, CallToolResultSchema, {
        timeout: upstream.timeoutMs,
      })) as CallToolResult;
    } catch (error) {
      throw upstreamFailure(error, upstream.timeoutMs);
    }
    checkDepth(raw);
    const ok = raw.isError !== true;
    const result = dataOf(raw);
    const page = ok ? fromOffset(result, offset) : result;
    return { ok, status: ok ? 200 : TOOL_ERROR_STATUS, result: page, raw, ...(page !== result ? { rewritten: true } : {}) };
  };
  return proxyCall(deps, {
    session,
    proxy: upstream.name,
    tool,
    args,
    request: { method: 'tools/call', path: `/tools/${tool.listed.name}` },
    send,
  });
}

/** A tool result as data: its structured content, else the JSON (or the text) of its one text content, else its content. */
export function dataOf(result: CallToolResult): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  const [only, ...others] = result.content;
  if (only?.type !== 'text' || others.length > 0) return result.content;
  return jsonOrText(only.text);
}

/** Why the upstream gave no result, as the proxy's own problem: too slow (504), gone, or a protocol error (502). */
function upstreamFailure(error: unknown, timeoutMs: number): ProblemError {
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout)
    return problemError(504, 'upstream_timeout', `The upstream MCP server did not answer within ${timeoutMs} ms (timeout_ms).`);
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed)
    return problemError(502, 'upstream_unreachable', 'The upstream MCP server closed the connection.');
  if (error instanceof McpError)
    return problemError(502, 'upstream_error', `The upstream MCP server answered an error: ${error.message}`, { code: error.code });
  return problemError(502, 'upstream_unreachable', `The upstream MCP server could not be reached (${error instanceof Error ? error.message : String(error)}).`);
}
