import type { FastifyInstance } from 'fastify';
import { type JsonTextError, parseJsonText } from '../../lib/json.js';
import { isObject } from '../../lib/object.js';
import type { Session } from '../core/sessions/session.js';
import type { Episodes } from './episodes.js';
import { parseReset } from './protocol.js';
import { answerRpc, failure, RPC, rpcFailure } from './rpc.js';
import type { SocketPlaces, SocketProtocol } from './socket.js';

/**
 * OpenEnv's JSON-RPC over a WebSocket at /openenv/mcp (its server's `/mcp` socket): each connection is its own
 * session, opened by the first `openenv/session/create` (whose params are reset's: task, seed, hazards…) or by
 * the first other request (the task the drawn seed picks), and deleted when the connection closes. Each text
 * frame is one JSON-RPC request, answered in order.
 */
export async function openenvMcpSocketRoute(
  app: FastifyInstance,
  { episodes, idleMs, places }: { episodes: Episodes; idleMs: number; places: SocketPlaces },
): Promise<void> {
  app.get('/mcp', { websocket: true, schema: { hide: true } }, (socket) => places.serve(socket, new McpConnection(app, episodes), idleMs));
}

class McpConnection implements SocketProtocol {
  private session: Session | undefined;

  constructor(
    private readonly app: FastifyInstance,
    private readonly episodes: Episodes,
  ) {}

  async answer(text: string | null): Promise<object> {
    if (text === null) return failure(null, RPC.PARSE_ERROR, 'Parse error: send JSON-RPC requests as JSON text frames.');
    let message: unknown;
    try {
      message = parseJsonText(text);
    } catch (error) {
      return failure(null, RPC.PARSE_ERROR, `Parse error: ${(error as JsonTextError).message}`);
    }
    const request = isObject(message) ? (message as { method?: unknown; params?: unknown; id?: unknown }) : {};
    if (!this.session) {
      const id = typeof request.id === 'string' || typeof request.id === 'number' ? request.id : null;
      const creating = request.method === 'openenv/session/create';
      const reset = parseReset(creating && isObject(request.params) ? request.params : {});
      if (!reset.success) return failure(id, RPC.INVALID_PARAMS, reset.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
      const { session, result } = await this.episodes.reset(reset.data, reset.ignored);
      this.session = session;
      if (creating) return { jsonrpc: '2.0', id, result: { session_id: session.id, observation: result.observation } };
    }
    return answerRpc(this.app, this.episodes, message, this.live());
  }

  failure(error: unknown): object {
    return rpcFailure(this.app, null, error);
  }

  full(connections: number): object {
    const most = this.app.sessions.maxSessions;
    return failure(null, RPC.SERVER_ERROR, `All ${most} sessions are in use; retry later.`, { active_sessions: connections, max_sessions: most });
  }

  flooded(limit: number): object {
    return failure(null, RPC.SERVER_ERROR, `More than ${limit} requests wait for an answer; read the answers before sending more.`);
  }

  idle(seconds: number): object {
    return failure(null, RPC.SERVER_ERROR, `No request for ${seconds} s (OPENENV_IDLE_TIMEOUT): the connection is closed.`);
  }

  discard(): void {
    const session = this.session;
    this.session = undefined;
    if (session && this.app.sessions.get(session.id) === session) this.app.sessions.delete(session.id);
  }

  /** The connection's session, unless it expired or was deleted meanwhile. */
  private live(): Session {
    return this.app.sessions.require(this.session!.id);
  }
}
