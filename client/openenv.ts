import type { FromSchema } from 'json-schema-to-ts';
import { WebSocket } from 'undici';
import type { openenv } from './schemas/openenv.js';

// OpenEnv's EnvClient in TypeScript: one WebSocket per episode at `${base_url}/ws`, messages answered in
// order (reset and step → observation, state → state, mcp → JSON-RPC answer, error → a rejected promise).

export type ResetData = FromSchema<typeof openenv.reset>;
export type OpenEnvAction = FromSchema<typeof openenv.action>;
export type OpenEnvObservation = FromSchema<typeof openenv.observation>;
export type EpisodeState = FromSchema<typeof openenv.state>;

export interface StepResult {
  observation: OpenEnvObservation;
  /** The score on the terminal step (1 or 0); null before. */
  reward: number | null;
  done: boolean;
  metadata?: Record<string, unknown>;
}

/** An error message of the protocol: its code (CAPACITY_REACHED, VALIDATION_ERROR, …) and details. */
export class OpenEnvError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly data: Record<string, unknown>,
  ) {
    super(message);
  }
}

export interface OpenEnvOptions {
  /** API_TOKEN of the server, when it requires one. */
  token?: string;
}

type Pending = { resolve(value: unknown): void; reject(error: Error): void; expect: string };

export class OpenEnvClient {
  private readonly pending: Pending[] = [];
  private closed: Error | undefined;

  private constructor(private readonly socket: WebSocket) {
    socket.addEventListener('message', (event) => this.receive(String(event.data)));
    socket.addEventListener('close', (event) =>
      this.fail(new OpenEnvError('CLOSED', `the connection closed (${event.code}${event.reason ? ` ${event.reason}` : ''})`, {})),
    );
    socket.addEventListener('error', () => this.fail(new OpenEnvError('CLOSED', 'the connection failed', {})));
  }

  /** Opens an episode's connection: `baseUrl` is the environment's base URL (`http://host:port/openenv`). */
  static connect(baseUrl: string, options: OpenEnvOptions = {}): Promise<OpenEnvClient> {
    const url = `${baseUrl.replace(/^http/, 'ws').replace(/\/$/, '')}/ws`;
    const socket = new WebSocket(url, options.token ? { headers: { authorization: `Bearer ${options.token}` } } : {});
    return new Promise((resolve, reject) => {
      const failed = () => reject(new OpenEnvError('CLOSED', `could not connect to ${url}`, {}));
      socket.addEventListener('error', failed, { once: true });
      socket.addEventListener(
        'open',
        () => {
          socket.removeEventListener('error', failed);
          resolve(new OpenEnvClient(socket));
        },
        { once: true },
      );
    });
  }

  /** Starts an episode: the task (named, or chosen by seed), its hazards; the first observation holds the request, the tools and the policy. */
  reset(data: ResetData = {}): Promise<StepResult> {
    return this.send({ type: 'reset', data }, 'observation') as Promise<StepResult>;
  }

  /** A tool call, a re-read of the listing, or the final answer; the terminal step carries the reward. */
  step(action: OpenEnvAction): Promise<StepResult> {
    return this.send({ type: 'step', data: action }, 'observation') as Promise<StepResult>;
  }

  state(): Promise<EpisodeState> {
    return this.send({ type: 'state' }, 'state') as Promise<EpisodeState>;
  }

  /** A JSON-RPC request (tools/list, tools/call) in the episode's session; its JSON-RPC answer. */
  mcp(request: { method: string; params?: Record<string, unknown>; id?: string | number }): Promise<Record<string, unknown>> {
    return this.send({ type: 'mcp', data: { jsonrpc: '2.0', id: request.id ?? 1, ...request } }, 'mcp') as Promise<Record<string, unknown>>;
  }

  /** Ends the episode's connection (the server deletes its session unless reset asked to keep it). */
  async close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return;
    const closed = new Promise<void>((resolve) => this.socket.addEventListener('close', () => resolve(), { once: true }));
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify({ type: 'close' }));
    await closed;
  }

  private send(message: object, expect: string): Promise<unknown> {
    if (this.closed) return Promise.reject(this.closed);
    return new Promise((resolve, reject) => {
      this.pending.push({ resolve, reject, expect });
      this.socket.send(JSON.stringify(message));
    });
  }

  private receive(text: string): void {
    const waiting = this.pending.shift();
    let message: { type?: string; data?: Record<string, unknown> };
    try {
      message = JSON.parse(text);
    } catch {
      waiting?.reject(new OpenEnvError('INVALID_JSON', 'the server sent a message that is not JSON', { text }));
      return;
    }
    const data = message.data ?? {};
    if (message.type === 'error') {
      const error = new OpenEnvError(String(data['code']), String(data['message']), data);
      if (waiting) waiting.reject(error);
      // An error nobody asked for (capacity reached on connecting) ends the connection.
      else this.fail(error);
      return;
    }
    if (!waiting) return;
    if (message.type !== waiting.expect) waiting.reject(new OpenEnvError('UNEXPECTED', `expected a ${waiting.expect} message, got ${message.type}`, data));
    else waiting.resolve(data);
  }

  private fail(error: Error): void {
    this.closed ??= error;
    for (const waiting of this.pending.splice(0)) waiting.reject(this.closed);
  }
}
