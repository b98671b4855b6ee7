import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { damage } from '../../hazards/fault.js';
import { sendProblem } from '../errors.js';
import { sendFault } from '../fault-reply.js';
import { toProblem } from '../problem.js';
import { addressedSession } from '../session-id.js';
import type { ToolView } from '../tool-views.js';
import { instructionsOf, mcpServer } from './server.js';
import { type Exchange, type McpSession, McpSessions } from './sessions.js';

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

  async function handle(view: ToolView, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const id = header(request, 'mcp-session-id');
    let mcp: McpSession | undefined;
    if (id !== undefined) {
      mcp = sessions.get(id);
      if (!mcp || mcp.view !== view.name) return rpcError(reply, 404, -32001, `No MCP session '${id}' at ${request.url}: initialize a new one.`);
      const addressed = addressedSession(request);
      if (addressed !== undefined && addressed !== mcp.session)
        return rpcError(reply, 400, -32000, `MCP session '${id}' is bound to session '${mcp.session}', not '${addressed}'.`);
    } else {
      if (request.method !== 'POST' || !isInitializeRequest(request.body))
        return rpcError(reply, 400, -32000, 'No Mcp-Session-Id header: the first request of an MCP session must be initialize.');
      if (!sessions.room())
        return rpcError(
          reply,
          503,
          -32000,
          `All ${app.sessions.maxSessions} MCP sessions are in use; close one (DELETE with its Mcp-Session-Id) or retry later.`,
        );
      try {
        mcp = await open(view, addressedSession(request));
      } catch (error) {
        const failure = toProblem(error);
        if (failure) return sendProblem(reply, failure);
        throw error;
      }
    }
    return exchange(mcp, request, reply);
  }

  async function open(view: ToolView, addressed: string | undefined): Promise<McpSession> {
    const session = addressed === undefined ? app.sessions.create({}).id : app.sessions.resolve(addressed).id;
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (mcpId) => sessions.add(mcpId, mcp),
      onsessionclosed: (mcpId) => sessions.remove(mcpId),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.remove(transport.sessionId);
    };
    const mcp: McpSession = {
      view: view.name,
      session,
      transport,
      server: mcpServer(app, {
        view,
        session,
        ...(policies.has(view.name) ? { instructions: policies.get(view.name)! } : {}),
        fault(requestId, fault) {
          const carrier = mcp.exchanges.get(requestId);
          if (carrier) carrier.fault = fault;
          return carrier !== undefined;
        },
        listChanged() {
          if (mcp.streamOpen) void mcp.server.sendToolListChanged();
          else mcp.listChangedPending = true;
        },
      }),
      exchanges: new Map(),
      lastUsedMs: performance.now(),
      streamOpen: false,
      listChangedPending: false,
    };
    await mcp.server.connect(transport);
    return mcp;
  }

  /** One HTTP exchange: the SDK's transport answers it, unless a fault of the connection lands on it. */
  async function exchange(mcp: McpSession, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const carried = requestIds(request.body);
    const carrier: Exchange = {};
    for (const id of carried) mcp.exchanges.set(id, carrier);
    let response: Response;
    try {
      response = await mcp.transport.handleRequest(webRequest(request), request.method === 'POST' ? { parsedBody: request.body } : undefined);
    } finally {
      for (const id of carried) mcp.exchanges.delete(id);
    }
    const headers: Record<string, string> = { 'x-session-id': mcp.session };
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    if (carrier.fault) {
      const text = 'answer' in carrier.fault ? damage(await response.text(), carrier.fault) : '';
      return sendFault(request, reply, carrier.fault, text, { 'mcp-session-id': headers['mcp-session-id']!, 'x-session-id': mcp.session });
    }
    reply.code(response.status).headers(headers);
    if (request.method === 'GET' && response.ok && response.body) {
      mcp.streamOpen = true;
      request.raw.once('close', () => {
        mcp.streamOpen = false;
      });
      reply.send(Readable.fromWeb(response.body as ReadableStream));
      if (mcp.listChangedPending) {
        mcp.listChangedPending = false;
        void mcp.server.sendToolListChanged();
      }
      return reply;
    }
    return reply.send(await response.text());
  }
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The ids of the JSON-RPC requests a body carries (one message, or a batch). */
function requestIds(body: unknown): (string | number)[] {
  const messages = Array.isArray(body) ? body : [body];
  const ids: (string | number)[] = [];
  for (const message of messages) {
    if (typeof message !== 'object' || message === null || !('method' in message) || !('id' in message)) continue;
    const id = (message as { id: unknown }).id;
    if (typeof id === 'string' || typeof id === 'number') ids.push(id);
  }
  return ids;
}

/** The request as the SDK's web-standard transport reads it; the body is handed over already parsed. */
function webRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name === 'content-length' || name === 'transfer-encoding' || name === 'connection') continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return new Request(`http://${request.host}${request.url}`, { method: request.method, headers });
}

function rpcError(reply: FastifyReply, status: number, code: number, message: string): FastifyReply {
  return reply.code(status).type('application/json').send({ jsonrpc: '2.0', error: { code, message }, id: null });
}
