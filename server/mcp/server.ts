import type { FastifyInstance } from 'fastify';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { callTool } from '../core/call.js';
import { mcpToolOf } from '../core/listings.js';
import { unknownToolCall } from '../core/errors.js';
import type { Session } from '../core/sessions/session.js';
import type { ToolView } from '../core/tool-views.js';
import { VERSION } from '../core/version.js';
import { ListingWatch } from '../core/mcp/listing-watch.js';
import { toolResult, upstreamError, type WireFault } from '../core/mcp/render.js';

export interface McpBinding {
  readonly view: ToolView;
  /** The wildtools session every call of this MCP session runs in. */
  readonly session: string;
  /** The domain's policy, given to the client as the server's instructions. */
  readonly instructions?: string;
  /**
   * Hands a fault of the connection to the transport carrying request `id`; false when no exchange
   * carries it, and the fault is then answered as the server's own upstream error.
   */
  fault(id: string | number, fault: WireFault): boolean;
  /** Called when the session's listing differs from the one the client last saw. */
  listChanged(): void;
}

/**
 * One MCP server over a view of the tools, bound to one wildtools session: tools/list shows the
 * session's listing, tools/call walks the same call path as REST.
 */
export function mcpServer(app: FastifyInstance, binding: McpBinding): Server {
  const { view } = binding;
  const server = new Server(
    { name: view.name === 'combined' ? 'wildtools' : `wildtools-${view.name}`, version: VERSION },
    { capabilities: { tools: { listChanged: true } }, ...(binding.instructions ? { instructions: binding.instructions } : {}) },
  );
  const listing = () => {
    const session = app.sessions.view(binding.session);
    const contracts = view.changed(session) ?? view.canonical;
    return contracts.map((contract) => {
      const { outputSchema, ...tool } = mcpToolOf(contract);
      return (outputSchema && !reshaped(app, view, contract.name, session) ? { ...tool, outputSchema } : tool) as Tool;
    });
  };
  const watch = new ListingWatch(
    listing,
    () => {
      const session = app.sessions.view(binding.session);
      return { revision: app.hazards.revision(session), contracts: JSON.stringify(view.changed(session)) };
    },
    () => binding.listChanged(),
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: watch.list() }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const session = app.sessions.resolve(binding.session);
    const { name, arguments: args = {} } = request.params;
    const found = view.resolve(name, session);
    if (!found)
      throw new McpError(ErrorCode.InvalidParams, unknownToolCall(app, session, view.name === 'combined' ? undefined : view.name, name, args).problem.detail);
    const outcome = await callTool(app, session, found.domain, found.tool, args);
    watch.check();
    const fault = outcome.fault;
    if (fault?.type === 'transport' && !binding.fault(extra.requestId, fault)) return upstreamError(fault);
    return toolResult(outcome);
  });
  return server;
}

/** Whether a hazard may reshape this tool's answers in the session (its declared output schema would then be a promise broken). */
function reshaped(app: FastifyInstance, view: ToolView, name: string, session: Session): boolean {
  const found = view.resolve(name, session);
  return found !== undefined && app.hazards.reshapes(session, found.domain.name, found.tool.name);
}
