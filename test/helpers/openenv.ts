import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { WebSocket } from 'undici';
import { type EpisodeState, OpenEnvClient, type OpenEnvOptions, type StepResult } from '../../client/openenv.js';
import { domains } from '../../domains/index.js';
import { TaskBook } from '../../server/core/tasks/book.js';
import { fixtureBases, type TestServer } from './server.js';

// What the OpenEnv protocol tests share: the protocol's own schemas as a validator of what the server
// answers, a client closed with the test, a raw socket for traffic no client would send, and the
// retail/001 episode of seed 0 (cancel the pending order holding an item) whose steps they drive.

interface Asserts {
  ok(value: unknown, message: string): boolean;
  teardown(fn: () => unknown): void;
}

export const TASK = 'retail/001';
/** The instance the episodes run: the embedded data's. */
export const SEED = 0;
const instance = (await new TaskBook(domains, await fixtureBases()).ready()).instance(TASK, SEED);
const given = instance.given as { email: string; product: string };
const expected = instance.turns[0]!.answer!.expected as { order_id: string; refunds: unknown[] };
export const EMAIL = given.email;
/** The customer's user id (what find_user_id_by_email answers for EMAIL). */
export const USER_ID = [...(instance.base.tables.get('users')!.values() as Iterable<{ user_id: string; email: string }>)].find(
  (user) => user.email === EMAIL,
)!.user_id;
/** The item the customer names: the request states it. */
export const PRODUCT = given.product;
/** The pending order that holds it. */
export const ORDER = expected.order_id;
export const FIND_USER = { type: 'call_tool', tool_name: 'find_user_id_by_email', arguments: { email: EMAIL } } as const;
export const READ_ORDER = { type: 'call_tool', tool_name: 'get_order_details', arguments: { order_id: ORDER } } as const;
export const CANCEL = { type: 'call_tool', tool_name: 'cancel_pending_order', arguments: { order_id: ORDER, reason: 'no longer needed' } } as const;
export const WRONG_ANSWER = { type: 'answer', answer: { order_id: 'unknown', refunds: [] }, text: 'I could not find that order.' } as const;

/** The answer retail/001 expects, read off the cancellation's result (as a careful agent would). */
export function rightAnswer(cancelled: { status: string; payment_history: { transaction_type: string; amount: number; payment_method_id: string }[] }) {
  const refunds = cancelled.payment_history
    .filter((payment) => payment.transaction_type === 'refund')
    .map(({ amount, payment_method_id }) => ({ payment_method_id, amount }));
  return { type: 'answer', answer: { order_id: ORDER, refunds }, text: `Order ${ORDER} is ${cancelled.status}.` } as const;
}

export interface Checks {
  /** Asserts the step result's observation matches GET /openenv/schema's observation; returns it. */
  observed<T extends { observation: unknown }>(result: T): T;
  /** Asserts the state matches the schema's state; returns it. */
  state<T>(state: T): T;
}

/** Validators of GET /openenv/schema's observation and state, with the MCP SDK's ajv. */
export async function protocolChecks(t: Asserts, server: TestServer): Promise<Checks> {
  const { body } = await server.request<{ observation: Record<string, unknown>; state: Record<string, unknown> }>('GET', '/openenv/schema');
  const validator = new AjvJsonSchemaValidator();
  const observation = validator.getValidator(body.observation);
  const state = validator.getValidator(body.state);
  return {
    observed(result) {
      const check = observation(result.observation);
      t.ok(check.valid, `the observation matches the schema ${check.errorMessage ?? ''}`);
      return result;
    },
    state(value) {
      const check = state(value);
      t.ok(check.valid, `the state matches the schema ${check.errorMessage ?? ''}`);
      return value;
    },
  };
}

/** An OpenEnv client of the server's /openenv, closed when the test ends; each observation it receives is checked. */
export async function connectClient(t: Asserts, server: TestServer, checks: Checks, options: OpenEnvOptions = {}): Promise<CheckedClient> {
  const client = await OpenEnvClient.connect(`${server.origin}/openenv`, options);
  t.teardown(() => client.close());
  return new CheckedClient(client, checks);
}

/** An OpenEnvClient whose observations and states are validated against the protocol's schemas. */
export class CheckedClient {
  constructor(
    readonly raw: OpenEnvClient,
    private readonly checks: Checks,
  ) {}

  async reset(data: Parameters<OpenEnvClient['reset']>[0] = {}): Promise<StepResult> {
    return this.checks.observed(await this.raw.reset(data));
  }

  async step(action: Parameters<OpenEnvClient['step']>[0]): Promise<StepResult> {
    return this.checks.observed(await this.raw.step(action));
  }

  async state(): Promise<EpisodeState> {
    return this.checks.state(await this.raw.state());
  }

  mcp(request: Parameters<OpenEnvClient['mcp']>[0]) {
    return this.raw.mcp(request);
  }

  close(): Promise<void> {
    return this.raw.close();
  }
}

export interface RawSocket {
  send(data: string | Uint8Array): void;
  /** The next message the server sends, parsed. */
  next(): Promise<{ type: string; data: any; [member: string]: any }>;
  /** Resolves with the close code once the connection closed. */
  closed: Promise<number>;
  /** Closes the connection from this side; resolves once it closed. */
  close(): Promise<number>;
}

/** A bare WebSocket (at /openenv/ws unless told) for traffic an OpenEnv client never sends; closed when the test ends. */
export async function rawSocket(t: Asserts, server: TestServer, path = '/openenv/ws'): Promise<RawSocket> {
  const socket = new WebSocket(`${server.origin.replace(/^http/, 'ws')}${path}`);
  const received: string[] = [];
  const waiting: ((text: string) => void)[] = [];
  socket.addEventListener('message', (event) => {
    const text = String(event.data);
    const reader = waiting.shift();
    if (reader) reader(text);
    else received.push(text);
  });
  const closed = new Promise<number>((resolve) => socket.addEventListener('close', (event) => resolve(event.code)));
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', reject, { once: true });
  });
  t.teardown(() => {
    if (socket.readyState === WebSocket.CLOSED) return;
    socket.close();
    return closed;
  });
  return {
    send: (data) => socket.send(data),
    next: async () => JSON.parse(received.shift() ?? (await new Promise<string>((resolve) => waiting.push(resolve)))),
    closed,
    close: () => {
      socket.close();
      return closed;
    },
  };
}

/** Waits (a few milliseconds at a time, at most about two seconds) until the session is gone; true if it went. */
export async function gone(server: TestServer, id: string): Promise<boolean> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if ((await server.request('GET', `/sessions/${id}/journal`)).status === 404) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return false;
}
