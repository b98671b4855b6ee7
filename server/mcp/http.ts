import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import type { ToolView } from '../core/tool-views.js';
import { McpSessions } from '../core/mcp/sessions.js';

export interface McpRouteOptions {
  /** How long an idle MCP session lives (the wildtools session TTL). */
  ttlMs: number;
}

/** The MCP SDK and the servers built on it load with the first MCP request: a server nobody speaks MCP to starts a tenth faster. */
const endpoint = () => import('./endpoint.js');

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
  const policies = new Map<string, string>();
  for (const view of app.views) {
    const instructions = await instructionsOf(app, view);
    if (instructions !== undefined) policies.set(view.name, instructions);
  }

  for (const view of app.views) {
    app.route({
      method: ['GET', 'POST', 'DELETE'],
      url: `${view.prefix}/mcp`,
      schema: { hide: true },
      handler: async (request, reply) => (await endpoint()).serveView(app, { sessions, view, instructions: policies.get(view.name) }, request, reply),
    });
  }
}

/** A view's instructions for MCP clients: its domain's policy (none for the combined view). */
export async function instructionsOf(app: FastifyInstance, view: ToolView): Promise<string | undefined> {
  const domain = app.registry.domains.get(view.name);
  return domain ? readFile(domain.policyFile, 'utf8') : undefined;
}
