import { type Dispatcher, request } from 'undici';

/** One HTTP answer as a client saw it; status 0 when the connection failed without an answer. */
export interface Reply<T = any> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body, or the text when it is not JSON. */
  body: T;
  text: string;
}

const isConnectionError = (error: unknown) => /^(UND_ERR|ECONN|EPIPE)/.test(String((error as { code?: unknown }).code ?? ''));

/** Sends one request; a connection that fails or an answer cut short is status 0, never a throw. */
export async function exchange(
  dispatcher: Dispatcher,
  base: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  try {
    const response = await request(`${base}${path}`, {
      dispatcher,
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const text = await response.body.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    return { status: response.statusCode, headers: response.headers, body: parsed, text };
  } catch (error) {
    if (isConnectionError(error)) return { status: 0, headers: {}, body: undefined, text: '' };
    throw error;
  }
}
