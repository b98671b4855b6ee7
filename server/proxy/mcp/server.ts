import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance } from 'fastify';
import type { SessionHooks } from '../../core/mcp/exchange.js';
import { ListingWatch } from '../../core/mcp/listing-watch.js';
import { upstreamError } from '../../core/mcp/render.js';
import { proxyView } from '../state.js';
import { callUpstream } from './call.js';
import { listingInputs, sessionListing } from './listing.js';
import { proxiedResult } from './render.js';
import type { McpProxy } from './upstream.js';

/**
 * The MCP server one client of `/proxy/{name}/mcp` talks to, bound to one wildtools session: it introduces
 * itself as the upstream does, lists the upstream's tools as the session sees them, and sends each call
 * through the proxy's pipeline to the upstream.
 */
export function proxyMcpServer(app: FastifyInstance, proxy: McpProxy, session: string, hooks: SessionHooks): Server {
  const server = new Server(proxy.serverInfo, {
    capabilities: { tools: { listChanged: true } },
    ...(proxy.instructions !== undefined ? { instructions: proxy.instructions } : {}),
  });
  const seen = () => proxyView(app.sessions.view(session)).hazards;
  const watch = new ListingWatch(
    () => sessionListing(app.hazards, seen(), proxy),
    () => listingInputs(app.hazards, seen(), proxy),
    () => hooks.listChanged(),
  );
  const unwatch = proxy.watchListing(watch);
  server.onclose = unwatch;

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: watch.list() }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args = {} } = request.params;
    const tool = proxy.toolNamed(name);
    // What the SDK's own McpServer answers for a tool it does not have.
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Tool ${name} not found`);
    const outcome = await callUpstream(app, proxy, app.sessions.resolve(session), tool, args);
    watch.check();
    const fault = outcome.fault;
    if (fault?.type === 'transport' && !hooks.fault(extra.requestId, fault)) return upstreamError(fault);
    return proxiedResult(outcome);
  });
  return server;
}
