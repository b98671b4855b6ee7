import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { HazardSession } from '../../../hazards/call-context.js';
import type { ToolContract } from '../../../hazards/kind.js';
import type { HazardEngineApi } from '../../../hazards/engine-api.js';
import type { ListingInputs } from '../../core/mcp/listing-watch.js';
import type { McpTool } from './tools.js';

/** What a session's listing of an MCP upstream is made of. */
export interface ListedUpstream {
  readonly name: string;
  tools(): readonly McpTool[];
  contracts(): ToolContract[];
}

/**
 * The upstream's tools as this session sees them: the upstream's own listing (original names, its
 * annotations), with what hazards changed of a tool's contract (a renamed argument, a documented rule),
 * and without an output schema where a hazard may reshape the answers.
 */
export function sessionListing(hazards: HazardEngineApi, session: HazardSession, upstream: ListedUpstream): Tool[] {
  const canonical = upstream.contracts();
  const changed = hazards.contracts(session, upstream.name, canonical);
  return upstream.tools().map((tool, i) => {
    const contract = changed?.find((candidate) => candidate.name === tool.name);
    const listed = contract && JSON.stringify(contract) !== JSON.stringify(canonical[i]) ? withContract(tool.listed, contract) : tool.listed;
    if (!listed.outputSchema || !hazards.reshapes(session, upstream.name, tool.name)) return listed;
    const { outputSchema: _reshaped, ...rest } = listed;
    return rest as Tool;
  });
}

/** What a listing depends on: the session's hazard plan and the contracts hazards changed. */
export function listingInputs(hazards: HazardEngineApi, session: HazardSession, upstream: ListedUpstream): ListingInputs {
  return { revision: hazards.revision(session), contracts: JSON.stringify(hazards.contracts(session, upstream.name, upstream.contracts())) };
}

/** The upstream's tool with a changed contract's description and argument names. */
function withContract(tool: Tool, contract: ToolContract): Tool {
  const input = contract.input as { properties?: Record<string, object>; required?: string[] };
  const { required: _required, ...schema } = tool.inputSchema;
  return {
    ...tool,
    description: contract.description,
    inputSchema: { ...schema, properties: input.properties ?? {}, ...(input.required ? { required: input.required } : {}) },
  };
}
