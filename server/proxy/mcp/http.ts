import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { handleMcp, openMcpSession, rpcError } from '../../core/mcp/exchange.js';
import type { McpSessions } from '../../core/mcp/sessions.js';
import { problemError } from '../../core/problem.js';
import type { Session } from '../../core/sessions/session.js';
import { proxyMcpServer } from './server.js';
import type { McpProxy } from './upstream.js';

/**
 * `/proxy/{name}/mcp`: MCP over Streamable HTTP, as wildtools serves its own tools. An MCP session is
 * bound at initialization to the session the route names (`/s/{id}/…` or X-Session-Id, else `default`).
 */
export function serveMcp(
  proxy: McpProxy,
  sessions: McpSessions,
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  session: Session,
  rest: string,
): Promise<FastifyReply> | FastifyReply {
  if (rest.replace(/\/$/, '') !== 'mcp') throw problemError(404, 'unknown_operation', `The MCP proxy '${proxy.name}' is served at /proxy/${proxy.name}/mcp.`);
  if (!['GET', 'POST', 'DELETE'].includes(request.method))
    return rpcError(reply.header('allow', 'GET, POST, DELETE'), 405, -32000, `${request.method} is not a method of MCP over Streamable HTTP.`);
  let body: unknown;
  if (request.method === 'POST') {
    try {
      body = JSON.parse(Buffer.isBuffer(request.body) ? request.body.toString('utf8') : String(request.body ?? ''));
    } catch {
      return rpcError(reply, 400, -32700, 'Parse error: the body is not JSON.');
    }
  }
  const scope = `proxy/${proxy.name}`;
  const open = () => openMcpSession(sessions, scope, session.id, (hooks) => proxyMcpServer(app, proxy, session.id, hooks));
  return handleMcp({ sessions, scope, maxSessions: app.sessions.maxSessions, open }, request, reply, body);
}
