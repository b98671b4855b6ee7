import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { addressedSession } from '../core/session-id.js';
import type { ToolView } from '../core/tool-views.js';
import { handleMcp, openMcpSession } from '../core/mcp/exchange.js';
import { mcpServer } from './server.js';
import type { McpSessions } from '../core/mcp/sessions.js';

/** One MCP request to a view: an exchange in its MCP session, or the initialization that opens one. */
export function serveView(
  app: FastifyInstance,
  { sessions, view, instructions }: { sessions: McpSessions; view: ToolView; instructions: string | undefined },
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const open = () => {
    const addressed = addressedSession(request);
    const session = addressed === undefined ? app.sessions.create({}).id : app.sessions.resolve(addressed).id;
    return openMcpSession(sessions, view.name, session, (hooks) =>
      mcpServer(app, { view, session, ...(instructions !== undefined ? { instructions } : {}), ...hooks }),
    );
  };
  return handleMcp({ sessions, scope: view.name, maxSessions: app.sessions.maxSessions, open }, request, reply, request.body);
}
