import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toolResult } from '../../core/mcp/render.js';
import type { ProxyOutcome } from '../call.js';

/**
 * A proxied call's outcome as the MCP client receives it: the upstream's result untouched when no hazard
 * changed it; a reshaped result as JSON text (and structured content where the upstream gave some);
 * a problem or a hazard's answer as a tool error, as wildtools' own MCP server renders them.
 */
export function proxiedResult(outcome: ProxyOutcome<CallToolResult>): CallToolResult {
  const { sent } = outcome;
  if (outcome.kind === 'passthrough' && sent) return sent.raw;
  if (outcome.kind === 'result') {
    const { structuredContent, ...result } = toolResult({ ...outcome, kind: 'result' });
    return sent?.raw.structuredContent !== undefined && structuredContent !== undefined ? { ...result, structuredContent } : result;
  }
  return toolResult({ ...outcome, kind: outcome.kind === 'fault' ? 'fault' : 'problem' });
}
