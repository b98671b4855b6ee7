import type { WebSocket } from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import { type JsonTextError, parseJsonText } from '../../lib/json.js';
import { toProblem } from '../core/problem.js';
import type { Session } from '../core/sessions/session.js';
import type { Episodes } from './episodes.js';
import { Action, parseReset } from './protocol.js';
import { answerRpc } from './rpc.js';
import type { SocketPlaces, SocketProtocol } from './socket.js';
import { isObject } from '../../lib/object.js';

/** OpenEnv's error codes (WSErrorCode). */
type ErrorCode = 'INVALID_JSON' | 'UNKNOWN_TYPE' | 'VALIDATION_ERROR' | 'EXECUTION_ERROR' | 'CAPACITY_REACHED' | 'SESSION_ERROR';

/**
 * OpenEnv's WebSocket protocol at /openenv/ws: each connection is its own episode (its own wildtools
 * session, deleted when the connection closes unless reset asked to keep it). Messages are answered in
 * order: reset and step with an observation, state with the state, mcp with a JSON-RPC answer, close
 * by closing; anything wrong with an error message that names the problem, never a dropped connection.
 */
export async function openenvSocketRoute(
  app: FastifyInstance,
  { episodes, idleMs, places }: { episodes: Episodes; idleMs: number; places: SocketPlaces },
): Promise<void> {
  app.get('/ws', { websocket: true, schema: { hide: true } }, (socket) => places.serve(socket, new Connection(app, episodes, socket), idleMs));
}

class Connection implements SocketProtocol {
  private session: Session | undefined;
  private keep = false;

  constructor(
    private readonly app: FastifyInstance,
    private readonly episodes: Episodes,
    private readonly socket: WebSocket,
  ) {}

  async answer(text: string | null): Promise<object | undefined> {
    if (text === null) return error('INVALID_JSON', 'Send messages as JSON text frames.');
    let message: unknown;
    try {
      message = parseJsonText(text);
    } catch (failure) {
      return error('INVALID_JSON', `Invalid JSON: ${(failure as JsonTextError).message}`);
    }
    if (!isObject(message)) return error('VALIDATION_ERROR', 'A message is a JSON object with a "type".');
    const { type, data, ...rest } = message as Record<string, unknown>;
    const extra = Object.keys(rest);
    if (extra.length > 0) return error('VALIDATION_ERROR', `Unknown member "${extra[0]}": a message has "type" and "data" only.`);
    switch (type) {
      case 'reset':
        return this.reset(data ?? {});
      case 'step': {
        if (!this.session) return error('SESSION_ERROR', 'No episode yet: send {"type": "reset"} first.');
        const action = Action.safeParse(data);
        if (!action.success) return validation(action.error.issues, 'data');
        return { type: 'observation', data: await this.episodes.step(this.live(), action.data) };
      }
      case 'state':
        return { type: 'state', data: this.episodes.state(this.session && this.live()) };
      case 'close':
        // Discarded before the socket closes, so that the episode's id is free again when the client reconnects at once.
        this.discard();
        this.socket.close(1000, 'closed by the client');
        return undefined;
      case 'mcp':
        return { type: 'mcp', data: await answerRpc(this.app, this.episodes, data, this.session && this.live()) };
      default:
        return error('UNKNOWN_TYPE', `Unknown message type: ${JSON.stringify(type)} (reset, step, state, close or mcp).`);
    }
  }

  private async reset(data: unknown): Promise<object> {
    const parsed = parseReset(data);
    if (!parsed.success) return validation(parsed.error.issues, 'data');
    this.discard();
    const { session, result } = await this.episodes.reset(parsed.data, parsed.ignored);
    this.session = session;
    this.keep = parsed.data.keep === true;
    return { type: 'observation', data: result };
  }

  full(connections: number): object {
    const most = this.app.sessions.maxSessions;
    return error('CAPACITY_REACHED', `All ${most} sessions are in use; retry later.`, { active_sessions: connections, max_sessions: most });
  }

  flooded(limit: number): object {
    return error('EXECUTION_ERROR', `More than ${limit} messages wait for an answer; read the answers before sending more.`);
  }

  idle(seconds: number): object {
    return error('SESSION_ERROR', `No message for ${seconds} s (OPENENV_IDLE_TIMEOUT): the connection is closed.`);
  }

  /** The connection's session, unless it expired or was deleted meanwhile. */
  private live(): Session {
    return this.app.sessions.require(this.session!.id);
  }

  discard(): void {
    const session = this.session;
    this.session = undefined;
    if (!session || this.keep || this.app.sessions.get(session.id) !== session) return;
    this.app.sessions.delete(session.id);
  }

  failure(failure: unknown): object {
    const known = toProblem(failure);
    if (!known) {
      this.app.log.error({ err: failure }, 'an OpenEnv message failed');
      return error('EXECUTION_ERROR', 'The server failed to handle the message; it has been logged.');
    }
    const { problem } = known;
    const code: ErrorCode = problem.code === 'session_limit' ? 'CAPACITY_REACHED' : problem.code === 'session_not_found' ? 'SESSION_ERROR' : 'EXECUTION_ERROR';
    return error(code, problem.detail, { status: problem.status, problem });
  }
}

const error = (code: ErrorCode, message: string, extra: Record<string, unknown> = {}) => ({ type: 'error', data: { message, code, ...extra } });

function validation(issues: readonly { path: readonly PropertyKey[]; message: string }[], root: string) {
  const errors = issues.map((issue) => ({ field: [root, ...issue.path.map(String)].join('.'), message: issue.message }));
  return error('VALIDATION_ERROR', `Invalid message: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`, { errors });
}
