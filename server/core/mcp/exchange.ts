import { randomUUID } from 'node:crypto';
import { routingKey } from '../sessions/ownership.js';
import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { damage } from '../../../hazards/fault.js';
import { sendProblem } from '../errors.js';
import { sendFault } from '../fault-reply.js';
import { toProblem } from '../problem.js';
import { addressedSession } from '../session-id.js';
import type { WireFault } from './render.js';
import type { Exchange, McpSession, McpSessions } from './sessions.js';

// MCP over Streamable HTTP, whatever the server behind it: sessions opened by initialize and bound to a
// wildtools session, notifications on the client's GET stream, faults of the connection on the exchange.

/** What an MCP server needs of its HTTP session: where a fault of the connection lands, and how a listing change is told. */
export interface SessionHooks {
  /** Hands a fault of the connection to the exchange carrying request `id`; false when none carries it. */
  fault(id: string | number, fault: WireFault): boolean;
  /** Sends tools/list_changed now, or when the client opens its stream. */
  listChanged(): void;
}

export interface McpEndpoint {
  sessions: McpSessions;
  /** The endpoint's name (a tool view, a proxy): a session opened at one endpoint is unknown at the others. */
  scope: string;
  /** The wildtools sessions' cap, named in the answer when no MCP session fits. */
  maxSessions: number;
  /** Opens an MCP session for an initialize request. */
  open(): Promise<McpSession>;
}

/**
 * One request to an MCP endpoint: an initialize opens a session, any other request names one
 * (Mcp-Session-Id) and is answered by its transport. `body` is the request's JSON (POST).
 */
export async function handleMcp(endpoint: McpEndpoint, request: FastifyRequest, reply: FastifyReply, body: unknown): Promise<FastifyReply> {
  const id = header(request, 'mcp-session-id');
  let mcp: McpSession | undefined;
  if (id !== undefined) {
    mcp = endpoint.sessions.get(id);
    if (!mcp || mcp.view !== endpoint.scope) return rpcError(reply, 404, -32001, `No MCP session '${id}' at ${request.url}: initialize a new one.`);
    const addressed = addressedSession(request);
    if (addressed !== undefined && addressed !== mcp.session)
      return rpcError(reply, 400, -32000, `MCP session '${id}' is bound to session '${mcp.session}', not '${addressed}'.`);
  } else {
    if (request.method !== 'POST' || !isInitializeRequest(body))
      return rpcError(reply, 400, -32000, 'No Mcp-Session-Id header: the first request of an MCP session must be initialize.');
    if (!endpoint.sessions.room())
      return rpcError(reply, 503, -32000, `All ${endpoint.maxSessions} MCP sessions are in use; close one (DELETE with its Mcp-Session-Id) or retry later.`);
    try {
      mcp = await endpoint.open();
    } catch (error) {
      const failure = toProblem(error);
      if (failure) return sendProblem(reply, failure);
      throw error;
    }
  }
  return exchange(mcp, request, reply, body);
}

/** A new MCP session of `scope` bound to wildtools session `session`, its server built with the session's hooks. */
export async function openMcpSession(sessions: McpSessions, scope: string, session: string, build: (hooks: SessionHooks) => Server): Promise<McpSession> {
  const transport = new WebStandardStreamableHTTPServerTransport({
    // Prefixed with the session's routing key, so that a load balancer sends the MCP session where its session is.
    sessionIdGenerator: () => `${routingKey(session)}.${randomUUID()}`,
    enableJsonResponse: true,
    onsessioninitialized: (mcpId) => sessions.add(mcpId, mcp),
    onsessionclosed: (mcpId) => sessions.remove(mcpId),
  });
  transport.onclose = () => {
    if (transport.sessionId !== undefined) sessions.remove(transport.sessionId);
  };
  const mcp: McpSession = {
    view: scope,
    session,
    transport,
    server: build({
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
async function exchange(mcp: McpSession, request: FastifyRequest, reply: FastifyReply, body: unknown): Promise<FastifyReply> {
  const carried = requestIds(body);
  const carrier: Exchange = {};
  for (const id of carried) mcp.exchanges.set(id, carrier);
  let response: Response;
  try {
    response = await mcp.transport.handleRequest(webRequest(request), request.method === 'POST' ? { parsedBody: body } : undefined);
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

/**
 * The request as the SDK's web-standard transport reads it; the body is handed over already parsed. Its
 * URL is never built from Host or an absolute-form target, which a client may make unparsable (a space,
 * a bracket): the transport reads only the path, and the access guards have judged the host already.
 */
function webRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name === 'content-length' || name === 'transfer-encoding' || name === 'connection') continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const path = request.url.startsWith('/') ? request.url : '/';
  return new Request(`http://wildtools.invalid${path}`, { method: request.method, headers });
}

export function rpcError(reply: FastifyReply, status: number, code: number, message: string): FastifyReply {
  return reply.code(status).type('application/json').send({ jsonrpc: '2.0', error: { code, message }, id: null });
}
