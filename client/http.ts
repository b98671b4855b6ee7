import { Agent, type Dispatcher, request } from 'undici';
import { type Problem, ProblemError, UnexpectedResponseError } from './errors.js';

export interface TransportOptions {
  /** Where the server listens, e.g. `http://127.0.0.1:8080` (a path prefix is kept). */
  baseUrl: string;
  /** Bearer token for every route but the admin ones (API_TOKEN). */
  apiToken?: string | undefined;
  /** Bearer token for the admin routes (ADMIN_TOKEN); it works on the other routes too. */
  adminToken?: string | undefined;
  /** The undici dispatcher to send with (a Pool, a MockAgent); one of the client's own otherwise. */
  dispatcher?: Dispatcher | undefined;
}

export interface Send {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
  /** Admin routes send the admin token. */
  admin?: boolean;
}

interface Answer {
  status: number;
  contentType: string;
  headers: Record<string, string>;
  text: string;
}

/** HTTP for the client: one request, its answer decoded, every failure a WildtoolsError. */
export class Transport {
  private readonly base: string;
  private readonly dispatcher: Dispatcher;
  private readonly owned: Agent | undefined;

  constructor(private readonly options: TransportOptions) {
    this.base = options.baseUrl.replace(/\/+$/, '');
    this.owned = options.dispatcher ? undefined : new Agent();
    this.dispatcher = options.dispatcher ?? this.owned!;
  }

  /** The answer's JSON; `undefined` for an empty answer (204). */
  async json<T>(send: Send): Promise<T> {
    const answer = await this.exchange(send);
    if (answer.text === '' && answer.status === 204) return undefined as T;
    try {
      return JSON.parse(answer.text) as T;
    } catch {
      throw foreign(label(send), answer);
    }
  }

  /** The answer's text (policies are markdown). */
  async text(send: Send): Promise<string> {
    return (await this.exchange(send)).text;
  }

  /** Closes the connections the client opened (not those of a dispatcher it was given). */
  async close(): Promise<void> {
    await this.owned?.close();
  }

  private async exchange(send: Send): Promise<Answer> {
    const name = label(send);
    let status: number | undefined;
    try {
      const response = await request(this.url(send), {
        dispatcher: this.dispatcher,
        method: send.method,
        headers: this.headers(send),
        body: send.body === undefined ? null : JSON.stringify(send.body),
      });
      status = response.statusCode;
      const text = await response.body.text();
      const headers = flatHeaders(response.headers);
      const answer = { status, contentType: headers['content-type'] ?? '', headers, text };
      if (status >= 400) throw refusal(name, answer);
      return answer;
    } catch (error) {
      if (error instanceof ProblemError || error instanceof UnexpectedResponseError) throw error;
      const code = (error as { code?: string }).code;
      const cause = `${code ? `${code} ` : ''}${(error as Error).message}`;
      throw new UnexpectedResponseError(name, { kind: 'connection', status, cause });
    }
  }

  private url(send: Send): string {
    const query = Object.entries(send.query ?? {}).filter((entry): entry is [string, string | number | boolean] => entry[1] !== undefined);
    const search = query.length > 0 ? `?${new URLSearchParams(query.map(([key, value]): [string, string] => [key, String(value)]))}` : '';
    return `${this.base}${send.path}${search}`;
  }

  private headers(send: Send): Record<string, string> {
    const token = send.admin ? (this.options.adminToken ?? this.options.apiToken) : (this.options.apiToken ?? this.options.adminToken);
    return {
      accept: 'application/json, application/problem+json, text/markdown;q=0.9, */*;q=0.1',
      ...(send.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...send.headers,
    };
  }
}

const label = (send: Send) => `${send.method} ${send.path}`;

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}

const foreign = (name: string, answer: Answer) =>
  new UnexpectedResponseError(name, { kind: 'foreign', status: answer.status, contentType: answer.contentType, body: answer.text });

/** An error answer: problem JSON when it is one, whatever it is otherwise. */
function refusal(name: string, answer: Answer): ProblemError | UnexpectedResponseError {
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return foreign(name, answer);
  }
  return isProblem(body, answer.status) ? new ProblemError(name, body, answer.headers) : foreign(name, answer);
}

function isProblem(body: unknown, status: number): body is Problem {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const { type, title, detail } = body as Record<string, unknown>;
  return (body as { status?: unknown }).status === status && typeof type === 'string' && typeof title === 'string' && typeof detail === 'string';
}
