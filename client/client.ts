import { type Send, Transport, type TransportOptions } from './http.js';
import { toolNames } from './schemas/index.js';
import type { ArgsParameter, DomainName, DomainTools, ToolName, ToolResult } from './tools.js';
import type {
  AnswerReceipt,
  BatchOptions,
  BatchReport,
  DomainInfo,
  HazardReport,
  HazardSpec,
  Health,
  JournalEntry,
  ListingFormat,
  PublicTask,
  Score,
  SessionDiff,
  SessionOptions,
  SessionScore,
  SessionSummary,
  SubmittedAnswer,
  TaskCategory,
  TaskSummary,
} from './types.js';

export interface ClientOptions extends TransportOptions {
  /** The session calls, listings, policies and hazards run in; the server's `default` when absent. */
  session?: string | undefined;
  /** How the session is named: a `/s/{id}` path prefix (default) or an `X-Session-Id` header. */
  sessionVia?: 'path' | 'header';
}

const path = (id: string) => `/sessions/${encodeURIComponent(id)}`;

/**
 * A typed HTTP client of a wildtools server. Tool calls answer their result or throw a ProblemError
 * (the server refused: status, code, detail, field) or an UnexpectedResponseError (an answer the API
 * does not define, such as an injected gateway fault, or a failed connection).
 */
export class WildtoolsClient {
  readonly retail: DomainTools<'retail'>;
  readonly airline: DomainTools<'airline'>;
  readonly smartHome: DomainTools<'smart-home'>;
  readonly weather: DomainTools<'weather'>;
  /** The session this client targets, when one was chosen. */
  readonly session: string | undefined;

  private readonly transport: Transport;

  constructor(
    private readonly options: ClientOptions,
    transport?: Transport,
  ) {
    this.transport = transport ?? new Transport(options);
    this.session = options.session;
    this.retail = this.tools('retail') as DomainTools<'retail'>;
    this.airline = this.tools('airline') as DomainTools<'airline'>;
    this.smartHome = this.tools('smart-home') as DomainTools<'smart-home'>;
    this.weather = this.tools('weather') as DomainTools<'weather'>;
  }

  /** The same server and connections, targeting another session. */
  withSession(session: string): WildtoolsClient {
    return new WildtoolsClient({ ...this.options, session }, this.transport);
  }

  /** Calls a tool: `client.call('retail', 'get_order_details', { order_id: '#W5124601' })`. */
  call<D extends DomainName, T extends ToolName<D>>(domain: D, tool: T, ...[args]: ArgsParameter<D, T>): Promise<ToolResult<D, T>> {
    return this.send(domain, tool, args as object | undefined) as Promise<ToolResult<D, T>>;
  }

  health(): Promise<Health> {
    return this.transport.json({ method: 'GET', path: '/health' });
  }

  domains(): Promise<DomainInfo[]> {
    return this.transport.json(this.scoped({ method: 'GET', path: '/domains' }));
  }

  /** A domain's tool listing (`GET /{domain}/tools`), or every domain's without one, as the session sees it. */
  listTools(domain?: DomainName, format: ListingFormat = 'native', options: { strict?: boolean } = {}): Promise<unknown> {
    const query = { format, strict: options.strict ? 'true' : undefined };
    return this.transport.json(this.scoped({ method: 'GET', path: domain ? `/${domain}/tools` : '/tools', query }));
  }

  /** A domain's OpenAPI document, or the combined one without a domain. */
  openapi(domain?: DomainName): Promise<Record<string, unknown>> {
    return this.transport.json(this.scoped({ method: 'GET', path: domain ? `/${domain}/openapi.json` : '/openapi.json' }));
  }

  /** The rules an agent must follow in a domain, as markdown. */
  policy(domain: DomainName): Promise<string> {
    return this.transport.text(this.scoped({ method: 'GET', path: `/${domain}/policy` }));
  }

  readonly sessions = {
    /** A named session is also named in X-Session-Id, so that a load balancer routes its creation where its calls will go. */
    create: (options: SessionOptions = {}): Promise<SessionSummary> =>
      this.transport.json({ method: 'POST', path: '/sessions', body: options, ...(options.id ? { headers: { 'x-session-id': options.id } } : {}) }),
    list: (): Promise<SessionSummary[]> => this.transport.json({ method: 'GET', path: '/sessions' }),
    get: (id = this.sessionId()): Promise<SessionSummary> => this.transport.json({ method: 'GET', path: path(id) }),
    /** Back to the start (admin). */
    reset: (id = this.sessionId()): Promise<SessionSummary> => this.transport.json({ method: 'POST', path: `${path(id)}/reset`, admin: true }),
    /** Deletes the session; `default` is reset instead (admin). */
    delete: async (id = this.sessionId()): Promise<void> => {
      await this.transport.json({ method: 'DELETE', path: path(id), admin: true });
    },
    /** The session's calls, those after sequence number `since` when given. */
    journal: (id = this.sessionId(), since?: number): Promise<JournalEntry[]> =>
      this.transport.json({ method: 'GET', path: `${path(id)}/journal`, query: { since } }),
    /** Every database as the session sees it: `{ retail: {...}, ... }`. */
    state: (id = this.sessionId()): Promise<Record<string, Record<string, Record<string, unknown>>>> =>
      this.transport.json({ method: 'GET', path: `${path(id)}/state` }),
    diff: (id = this.sessionId()): Promise<SessionDiff> => this.transport.json({ method: 'GET', path: `${path(id)}/diff` }),
    /** Records the agent's final answer to the current turn: a typed task's fields (`{ answer: {...} }`, as submit_answer takes them) and words. */
    answer: (answer: SubmittedAnswer, id = this.sessionId()): Promise<AnswerReceipt & { session: string }> =>
      this.transport.json({ method: 'POST', path: `${path(id)}/answer`, body: answer }),
    /** The session's task scored from its journal, its databases and its answers. */
    score: (id = this.sessionId()): Promise<SessionScore> => this.transport.json({ method: 'GET', path: `${path(id)}/score` }),
  };

  readonly tasks = {
    list: (filter: { domain?: string; category?: TaskCategory; kind?: string } = {}): Promise<TaskSummary[]> =>
      this.transport.json({ method: 'GET', path: '/tasks', query: filter }),
    /** A task's instance with its domain's tools and policy: `client.tasks.get('retail/001', 7)` (seed 0: the embedded data). */
    get: (id: string, seed = 0): Promise<PublicTask> =>
      this.transport.json({ method: 'GET', path: `/tasks/${id.split('/').map(encodeURIComponent).join('/')}`, query: { seed } }),
  };

  /** Re-scores a stored run (its instance's seed, journal and answers) with the server's task and scorer of today. */
  score(task: string, seed: number, journal: readonly JournalEntry[], answers: readonly SubmittedAnswer[] = []): Promise<Score> {
    return this.transport.json({ method: 'POST', path: '/score', body: { task, seed, journal, answers } });
  }

  readonly batches = {
    /** N sessions of one task with distinct seeds. */
    create: (options: BatchOptions): Promise<BatchReport> => this.transport.json({ method: 'POST', path: '/batches', body: options }),
    /** The batch's verdicts and pass^k over its scored sessions. */
    get: (id: string): Promise<BatchReport> => this.transport.json({ method: 'GET', path: `/batches/${encodeURIComponent(id)}` }),
  };

  readonly hazards = {
    /** The hazard catalog and effective matrix for this client's session (`active`: cells above 0 only). */
    get: (options: { session?: string; active?: boolean } = {}): Promise<HazardReport> =>
      this.transport.json({
        method: 'GET',
        path: '/hazards',
        query: { session: options.session ?? this.session, active: options.active === undefined ? undefined : options.active ? '1' : '0' },
      }),
    /** Replaces the runtime settings (admin). */
    set: (spec: HazardSpec): Promise<HazardReport> => this.transport.json({ method: 'PUT', path: '/admin/hazards', body: spec, admin: true }),
    /** Drops the runtime settings (admin). */
    clear: (): Promise<HazardReport> => this.transport.json({ method: 'DELETE', path: '/admin/hazards', admin: true }),
  };

  /** Closes the client's connections. */
  close(): Promise<void> {
    return this.transport.close();
  }

  /** The tools of one domain as methods (typed by the caller: inferring a domain through the schemas is slow). */
  private tools(domain: DomainName): unknown {
    const names: readonly string[] = toolNames[domain];
    return Object.freeze(Object.fromEntries(names.map((tool) => [tool, (args?: object) => this.send(domain, tool, args)])));
  }

  private send(domain: string, tool: string, args: object | undefined): Promise<unknown> {
    return this.transport.json(this.scoped({ method: 'POST', path: `/${domain}/tools/${tool}`, body: args ?? {} }));
  }

  private sessionId(): string {
    return this.session ?? 'default';
  }

  /** A request inside the client's session, by path prefix or header. */
  private scoped(send: Send): Send {
    if (this.session === undefined) return send;
    if (this.options.sessionVia === 'header') return { ...send, headers: { ...send.headers, 'x-session-id': this.session } };
    return { ...send, path: `/s/${encodeURIComponent(this.session)}${send.path}` };
  }
}
