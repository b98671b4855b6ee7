import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { anthropicToolOf } from '../core/listings.js';
import { toProblem } from '../core/problem.js';
import type { Session } from '../core/sessions/session.js';
import type { Episodes } from './episodes.js';
import { parseReset } from './protocol.js';
import { isObject } from '../../lib/object.js';

// OpenEnv's JSON-RPC tool access (POST /openenv/mcp, and `mcp` messages on the WebSocket): tools/list,
// tools/call, and its session methods openenv/session/create and openenv/session/close. The full MCP
// (Streamable HTTP, initialize, notifications) is served at /mcp and /{domain}/mcp.

export const RPC = { PARSE_ERROR: -32700, INVALID_REQUEST: -32600, METHOD_NOT_FOUND: -32601, INVALID_PARAMS: -32602, SERVER_ERROR: -32000 } as const;

const Request = z.object({
  jsonrpc: z.literal('2.0').optional(),
  method: z.string().max(128),
  params: z.record(z.string(), z.unknown()).optional(),
  id: z.union([z.string().max(256), z.number(), z.null()]).optional(),
});

export interface RpcResponse {
  jsonrpc: '2.0';
  id: string | number | null;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

export const failure = (id: RpcResponse['id'], code: number, message: string, data?: unknown): RpcResponse => ({
  jsonrpc: '2.0',
  id,
  error: { code, message, ...(data === undefined ? {} : { data }) },
});

/**
 * Answers one JSON-RPC request. `bound` is the session of the WebSocket carrying it, if any; otherwise a
 * call names its session in `params.session_id` (or the request's X-Session-Id, passed as `named`).
 */
export async function answerRpc(app: FastifyInstance, episodes: Episodes, message: unknown, bound?: Session, named?: string): Promise<RpcResponse> {
  const parsed = Request.safeParse(message);
  if (!parsed.success)
    return failure(
      null,
      RPC.INVALID_REQUEST,
      `Invalid request: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'request'}: ${i.message}`).join('; ')}`,
    );
  const { method, params = {}, id = null } = parsed.data;
  try {
    const sessionId = typeof params['session_id'] === 'string' ? params['session_id'] : named;
    const session = () => {
      if (bound) return bound;
      if (sessionId === undefined)
        throw new RpcError(RPC.INVALID_PARAMS, 'Name the session: params.session_id (from openenv/session/create) or an X-Session-Id header.');
      return app.sessions.require(sessionId);
    };
    switch (method) {
      case 'tools/list': {
        if (bound || sessionId !== undefined) {
          const current = session();
          return { jsonrpc: '2.0', id, result: { tools: episodes.tools(current) } };
        }
        const combined = app.views.find((view) => view.name === 'combined')!;
        return { jsonrpc: '2.0', id, result: { tools: combined.canonical.map(anthropicToolOf) } };
      }
      case 'tools/call': {
        const name = params['name'];
        if (typeof name !== 'string' || name.length === 0) throw new RpcError(RPC.INVALID_PARAMS, "Missing 'name' in params");
        const args = params['arguments'] ?? {};
        if (!isObject(args)) throw new RpcError(RPC.INVALID_PARAMS, "'arguments' must be an object");
        const step = await episodes.step(session(), { type: 'call_tool', tool_name: name, arguments: args as Record<string, unknown> });
        const { tool_name, result, error, response } = step.observation;
        return { jsonrpc: '2.0', id, result: { tool_name, result, error, response, reward: step.reward, done: step.done } };
      }
      case 'openenv/session/create': {
        if (bound) return { jsonrpc: '2.0', id, result: { session_id: bound.id } };
        const { session_id: _ignored, ...data } = params;
        const reset = parseReset(data);
        if (!reset.success) throw new RpcError(RPC.INVALID_PARAMS, reset.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
        const { session, result } = await episodes.reset(reset.data, reset.ignored);
        return { jsonrpc: '2.0', id, result: { session_id: session.id, observation: result.observation } };
      }
      case 'openenv/session/close': {
        if (sessionId === undefined) throw new RpcError(RPC.INVALID_PARAMS, "Invalid params - 'session_id' is required");
        if (bound?.id === sessionId) throw new RpcError(RPC.INVALID_REQUEST, 'Cannot close the WebSocket’s own session this way: send {"type": "close"}.');
        // Only an episode closes here: any other session is deleted by DELETE /sessions/{id}, which may need the admin token.
        if (!episodes.isEpisode(app.sessions.require(sessionId)))
          throw new RpcError(RPC.INVALID_PARAMS, `Session ${sessionId} is not an OpenEnv episode: delete it with DELETE /sessions/${sessionId}.`);
        app.sessions.delete(sessionId);
        await app.sessions.durable();
        return { jsonrpc: '2.0', id, result: { session_id: sessionId, closed: true } };
      }
      default:
        return failure(id, RPC.METHOD_NOT_FOUND, `Method not found: ${method}`);
    }
  } catch (error) {
    if (error instanceof RpcError || toProblem(error)) return rpcFailure(app, id, error);
    throw error;
  }
}

/** A failure as a JSON-RPC error: a refusal (a problem) with its detail, a full server as OpenEnv's capacity error, anything else logged. */
export function rpcFailure(app: FastifyInstance, id: RpcResponse['id'], error: unknown): RpcResponse {
  if (error instanceof RpcError) return failure(id, error.code, error.message);
  const known = toProblem(error);
  if (!known) {
    app.log.error({ err: error }, 'an OpenEnv JSON-RPC request failed');
    return failure(id, RPC.SERVER_ERROR, 'The server failed to handle the request; it has been logged.');
  }
  const { problem } = known;
  const code = problem.status < 500 && problem.code !== 'session_limit' ? RPC.INVALID_PARAMS : RPC.SERVER_ERROR;
  return failure(id, code, problem.detail, problem);
}

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}
