import { type Dispatcher, request } from 'undici';

// The model side of an eval: one OpenAI-compatible chat completions endpoint, called with the
// conversation and the session's tool listing, retried on 429 and 5xx.

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface AssistantMessage {
  role: 'assistant';
  content: string | null;
  tool_calls?: ToolCall[];
}

export type ChatMessage = { role: 'system' | 'user'; content: string } | AssistantMessage | { role: 'tool'; tool_call_id: string; content: string };

export interface ModelOptions {
  /** The endpoint's base, e.g. https://api.openai.com/v1 (POST {baseUrl}/chat/completions). */
  baseUrl: string;
  model: string;
  /** Sent as `authorization: Bearer <key>` when given. */
  apiKey?: string;
  temperature?: number;
  /** Retries of a 429, a 5xx or a failed connection (default 3). */
  retries?: number;
  /** How a backoff waits (default: a timer); tests pass their own so that nothing waits on the wall clock. */
  sleep?: (ms: number) => Promise<void>;
}

/** The model endpoint gave no usable answer: the run it belongs to fails with this error. */
export class ModelError extends Error {}

const timer = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The wait before retry `attempt` (1, 2, …): what Retry-After asks, up to a minute, else 1 s, 2 s, 4 s… */
export function backoff(attempt: number, retryAfter: string | string[] | undefined): number {
  const asked = Number(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter);
  if (retryAfter !== undefined && Number.isFinite(asked) && asked >= 0) return Math.min(asked, 60) * 1000;
  return 1000 * 2 ** (attempt - 1);
}

const excerpt = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 300);

/** One chat completion: the assistant message of the first choice. Throws ModelError when the endpoint gives none. */
export async function complete(
  dispatcher: Dispatcher,
  model: ModelOptions,
  messages: readonly ChatMessage[],
  tools: readonly unknown[],
): Promise<AssistantMessage> {
  const body = JSON.stringify({
    model: model.model,
    messages,
    tools,
    tool_choice: 'auto',
    ...(model.temperature === undefined ? {} : { temperature: model.temperature }),
  });
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(model.apiKey ? { authorization: `Bearer ${model.apiKey}` } : {}) };
  const retries = model.retries ?? 3;
  const sleep = model.sleep ?? timer;
  const url = `${model.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  for (let attempt = 1; ; attempt++) {
    let failure: string;
    let retryAfter: string | string[] | undefined;
    try {
      const response = await request(url, { dispatcher, method: 'POST', headers, body });
      const text = await response.body.text();
      if (response.statusCode >= 200 && response.statusCode < 300) return messageOf(text);
      failure = `HTTP ${response.statusCode}: ${excerpt(text)}`;
      if (response.statusCode !== 429 && response.statusCode < 500) throw new ModelError(`model endpoint answered ${failure}`);
      retryAfter = response.headers['retry-after'];
    } catch (error) {
      if (error instanceof ModelError) throw error;
      failure = `no answer (${(error as { code?: string }).code ?? (error as Error).message})`;
    }
    if (attempt > retries) throw new ModelError(`model endpoint: ${failure}, after ${attempt} attempts`);
    await sleep(backoff(attempt, retryAfter));
  }
}

/** The first choice's message of a completion's body. */
function messageOf(text: string): AssistantMessage {
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ModelError(`model endpoint answered a body that is not JSON: ${excerpt(text)}`);
  }
  const message = parsed?.choices?.[0]?.message;
  if (!message || typeof message !== 'object') throw new ModelError(`model endpoint answered no message: ${excerpt(text)}`);
  // Some servers leave out the id or send the arguments as an object: each call is put back in the standard shape.
  const calls: ToolCall[] = (Array.isArray(message.tool_calls) ? message.tool_calls : []).map((call: any, i: number) => {
    const args = call?.function?.arguments ?? '';
    return {
      id: typeof call?.id === 'string' ? call.id : `call_${i + 1}`,
      type: 'function',
      function: { name: String(call?.function?.name ?? ''), arguments: typeof args === 'string' ? args : JSON.stringify(args) },
    };
  });
  return {
    role: 'assistant',
    content: typeof message.content === 'string' ? message.content : null,
    ...(calls.length > 0 ? { tool_calls: calls } : {}),
  };
}
