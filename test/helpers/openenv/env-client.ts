import { get, loads, type PyDict, PythonError } from './python.js';
import { ClientConnection } from './socket.js';

// OpenEnv's EnvClient (src/openenv/core/env_client.py): one WebSocket at `<base>/ws` per client, each call
// one message answered by one message. Subclasses say how an action is sent and how answers are read.

/** client_types.py StepResult: a dataclass, so no validation of its own. */
export interface StepResult<O> {
  observation: O;
  reward: unknown;
  done: unknown;
}

/** A message as it crossed the connection, in order: what the emulation lets a test compare across clients. */
export interface Logged {
  direction: 'sent' | 'received';
  message: unknown;
}

/** utils.py convert_to_ws_url: http(s) becomes ws(s), a bare host gets ws://, a trailing slash goes. */
export function convertToWsUrl(url: string): string {
  const trimmed = url.replace(/\/+$/, '');
  if (trimmed.startsWith('http://')) return `ws://${trimmed.slice(7)}`;
  if (trimmed.startsWith('https://')) return `wss://${trimmed.slice(8)}`;
  return trimmed.startsWith('ws://') || trimmed.startsWith('wss://') ? trimmed : `ws://${trimmed}`;
}

export abstract class EnvClient<A, O, S> {
  /** env_client.py EnvClient.__init__: `<base as ws>/ws`. */
  readonly wsUrl: string;
  readonly log: Logged[] = [];
  protected readonly messageTimeoutMs: number;
  private ws: ClientConnection | undefined;

  constructor(baseUrl: string, { messageTimeoutMs = 10_000 }: { messageTimeoutMs?: number } = {}) {
    this.wsUrl = `${convertToWsUrl(baseUrl)}/ws`;
    this.messageTimeoutMs = messageTimeoutMs;
  }

  /** env_client.py EnvClient.connect: opens the WebSocket once. */
  async connect(): Promise<this> {
    this.ws ??= await ClientConnection.open(this.wsUrl);
    return this;
  }

  /** env_client.py EnvClient.disconnect: `{"type": "close"}` (best effort), then the socket's close. */
  async disconnect(): Promise<void> {
    const ws = this.ws;
    if (!ws) return;
    try {
      await this.send({ type: 'close' });
    } catch {}
    await ws.close().catch(() => {});
    this.ws = undefined;
  }

  /** env_client.py EnvClient._send: json.dumps of the message, connecting first if needed. */
  protected async send(message: PyDict): Promise<void> {
    await this.connect();
    this.log.push({ direction: 'sent', message });
    this.ws!.send(JSON.stringify(message));
  }

  /** env_client.py EnvClient._receive: json.loads of the next frame, within the message timeout. */
  protected async receive(): Promise<unknown> {
    const message = loads(await this.ws!.recv(this.messageTimeoutMs));
    this.log.push({ direction: 'received', message });
    return message;
  }

  /**
   * env_client.py EnvClient._send_and_receive: an answer whose `type` is "error" raises
   * RuntimeError("Server error: {data.message or 'Unknown error'} (code: {data.code or 'UNKNOWN'})").
   */
  protected async sendAndReceive(message: PyDict): Promise<unknown> {
    await this.send(message);
    const response = await this.receive();
    if (get(response, 'type') === 'error') {
      const data = get(response, 'data', {});
      throw runtimeError(`Server error: ${pyStr(get(data, 'message', 'Unknown error'))} (code: ${pyStr(get(data, 'code', 'UNKNOWN'))})`);
    }
    return response;
  }

  /** env_client.py EnvClient.reset(**kwargs): `{"type": "reset", "data": kwargs}`; parses `response.get("data", {})`. */
  async reset(kwargs: PyDict = {}): Promise<StepResult<O>> {
    const response = await this.sendAndReceive({ type: 'reset', data: kwargs });
    return this.parseResult(get(response, 'data', {}));
  }

  /** env_client.py EnvClient.step(action): `{"type": "step", "data": _step_payload(action)}`. */
  async step(action: A): Promise<StepResult<O>> {
    const response = await this.sendAndReceive({ type: 'step', data: this.stepPayload(action) });
    return this.parseResult(get(response, 'data', {}));
  }

  /** env_client.py EnvClient.state(): `{"type": "state"}`; parses `response.get("data", {})`. */
  async state(): Promise<S> {
    const response = await this.sendAndReceive({ type: 'state' });
    return this.parseState(get(response, 'data', {}));
  }

  /** env_client.py EnvClient.close(): disconnect (no container provider here). */
  async close(): Promise<void> {
    await this.disconnect();
  }

  abstract stepPayload(action: A): PyDict;
  abstract parseResult(payload: unknown): StepResult<O>;
  abstract parseState(payload: unknown): S;
}

/** Python's str() of a JSON value inside an f-string. */
export function pyStr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  return typeof value === 'number' ? String(value) : JSON.stringify(value);
}

const runtimeError = (message: string) => new PythonError('RuntimeError', message);
