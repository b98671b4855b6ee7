import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ConnectionFault, DamagedAnswer } from '../../../hazards/fault.js';
import type { Problem } from '../../../lib/problem.js';
import type { CallOutcome } from '../pipeline.js';
import { isObject } from '../../../lib/object.js';

/** Where a fault of the connection lands: the HTTP exchange carrying the MCP message, or, with no such exchange (stdio), the server's own upstream call. */
export type WireFault = ConnectionFault | DamagedAnswer;

const META = 'wildtools/';

/**
 * A call's outcome as an MCP tool result: the result as text and, for an object, as structured
 * content; a problem or another server's error page as a tool error with the API's own text.
 */
export function toolResult(outcome: CallOutcome): CallToolResult {
  if (outcome.kind === 'result') return success(outcome.body, outcome.text);
  const meta = { [`${META}status`]: outcome.status };
  if (outcome.kind === 'problem') {
    const problem = outcome.body as Problem;
    return { isError: true, content: [{ type: 'text', text: problem.detail }], _meta: { ...meta, [`${META}problem`]: problem } };
  }
  const fault = outcome.fault!;
  if (fault.type === 'http')
    return { isError: true, content: [{ type: 'text', text: fault.body }], _meta: { ...meta, [`${META}content-type`]: fault.contentType } };
  // A fault of the connection: rendered by the transport; this is what the answer would have been.
  return 'answer' in fault ? success(fault.answer, JSON.stringify(fault.answer)) : { content: [] };
}

function success(body: unknown, text: string): CallToolResult {
  const structured = isObject(body);
  return { content: [{ type: 'text', text }], ...(structured ? { structuredContent: body as Record<string, unknown> } : {}) };
}

/**
 * A fault of the connection as a server wrapping an HTTP API reports it when nothing else carries
 * the answer (stdio): the error its HTTP client or JSON parser raised.
 */
export function upstreamError(fault: WireFault): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: connectionErrorText(fault) }] };
}

/** The error an HTTP client (undici's fetch) raises for a fault of the connection, or its JSON parser for a broken body. */
export function connectionErrorText(fault: WireFault): string {
  if (!('answer' in fault)) return fault.mode === 'reset' ? 'fetch failed: read ECONNRESET' : 'fetch failed: other side closed (UND_ERR_SOCKET)';
  return fault.mode === 'truncated'
    ? 'terminated: other side closed before the body was complete (UND_ERR_SOCKET)'
    : `Unexpected token in JSON at position ${Math.max(1, Math.floor(JSON.stringify(fault.answer).length * fault.keep))}`;
}
