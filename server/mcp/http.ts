import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { addressedSession } from '../session-id.js';
import type { ToolView } from '../tool-views.js';
import { handleMcp, openMcpSession } from './exchange.js';
import { instructionsOf, mcpServer } from './server.js';
import { McpSessions } from './sessions.js';

export interface McpRouteOptions {
  /** How long an idle MCP session lives (the wildtools session TTL). */
  ttlMs: number;
}

/**
 * MCP over Streamable HTTP at `/{domain}/mcp` and `/mcp` (every tool under its combined name). An MCP
 * session is bound at initialization to the wildtools session the request names (`/s/{id}/…` or
 * X-Session-Id), or else to a session of its own, created then and named in every answer's
 * X-Session-Id, so its journal, state and diff can be read like any other.
 */
export async function mcpRoutes(app: FastifyInstance, { ttlMs }: McpRouteOptions): Promise<void> {
  const sessions = new McpSessions(() => app.sessions.maxSessions, ttlMs);
  // Before the server stops listening: an open GET stream would otherwise hold its connection, and the close, forever.
  app.addHook('preClose', () => sessions.closeAll());
  const views = app.views;
  const policies = new Map<string, string>();
  for (const view of views) {
    const instructions = await instructionsOf(app, view);
    if (instructions !== undefined) policies.set(view.name, instructions);
  }

  for (const view of views) {
    app.route({
      method: ['GET', 'POST', 'DELETE'],
      url: `${view.prefix}/mcp`,
      schema: { hide: true },
      handler: (request, reply) => handle(view, request, reply),
    });
  }

  function handle(view: ToolView, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const open = () => {
      const addressed = addressedSession(request);
      const session = addressed === undefined ? app.sessions.create({}).id : app.sessions.resolve(addressed).id;
      const instructions = policies.get(view.name);
      return openMcpSession(sessions, view.name, session, (hooks) =>
        mcpServer(app, { view, session, ...(instructions !== undefined ? { instructions } : {}), ...hooks }),
      );
    };
    return handleMcp({ sessions, scope: view.name, maxSessions: app.sessions.maxSessions, open }, request, reply, request.body);
  }
}
