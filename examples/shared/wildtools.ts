// The little HTTP glue every TypeScript example shares: a session on a wildtools server, its tool
// listing, its policy, and tool calls whose every answer (a result, a problem, a hazard's fault) becomes
// text for the model. Plain fetch: nothing here depends on wildtools' own code.

export const DEFAULT_URL = 'http://127.0.0.1:8080';

/** A JSON Schema object, as the listing gives it. */
export type JsonSchema = { [key: string]: unknown };

/** One tool of the native listing (`GET /{domain}/tools`). */
export interface ListedTool {
  name: string;
  description: string;
  mutates: boolean;
  input_schema: JsonSchema & { type: 'object'; properties: Record<string, JsonSchema>; required?: string[] };
}

/** The server the examples talk to: `WILDTOOLS_URL`, or the default local address. */
export const wildtoolsUrl = (environment: NodeJS.ProcessEnv = process.env): string => (environment['WILDTOOLS_URL'] ?? DEFAULT_URL).replace(/\/+$/, '');

async function expectOk(response: Response, what: string): Promise<Response> {
  if (!response.ok) throw new Error(`${what} answered ${response.status}: ${await response.text()}`);
  return response;
}

/** One wildtools session: an isolated copy of every database, with its own journal. */
export class WildtoolsSession {
  private constructor(
    readonly url: string,
    readonly id: string,
  ) {}

  /** Creates a session (POST /sessions); without an id the server names it. */
  static async create(url: string = wildtoolsUrl(), id?: string): Promise<WildtoolsSession> {
    const response = await fetch(`${url}/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(id === undefined ? {} : { id }),
    });
    const created = (await (await expectOk(response, 'POST /sessions')).json()) as { id: string };
    return new WildtoolsSession(url, created.id);
  }

  private path(rest: string): string {
    return `${this.url}/s/${encodeURIComponent(this.id)}${rest}`;
  }

  /** The domain's tools as this session sees them (hazards may change a contract). */
  async tools(domain: string): Promise<ListedTool[]> {
    const response = await expectOk(await fetch(this.path(`/${domain}/tools`)), `GET /${domain}/tools`);
    return ((await response.json()) as { tools: ListedTool[] }).tools;
  }

  /** The rules an agent of the domain must follow (markdown), to use as instructions. */
  async policy(domain: string): Promise<string> {
    return (await expectOk(await fetch(this.path(`/${domain}/policy`)), `GET /${domain}/policy`)).text();
  }

  /**
   * Calls a tool and answers what the model should read: the result's JSON text, or for a refusal the
   * status and the problem JSON (whose `detail` says what to fix), or what a failed connection said.
   * Never throws for the tool's own answer: an agent learns from a refusal only if it sees it.
   */
  async call(domain: string, tool: string, args: unknown): Promise<string> {
    try {
      const response = await fetch(this.path(`/${domain}/tools/${tool}`), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(args ?? {}),
      });
      const text = await response.text();
      return response.ok ? text : `Error: HTTP ${response.status} ${text}`;
    } catch (error) {
      return `Error: the request failed (${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)})`;
    }
  }

  /** What the session changed, per domain: GET /sessions/{id}/diff. */
  async diff(): Promise<Record<string, DiffEntry[]>> {
    const response = await expectOk(await fetch(`${this.url}/sessions/${encodeURIComponent(this.id)}/diff`), 'GET /sessions/{id}/diff');
    return (await response.json()) as Record<string, DiffEntry[]>;
  }
}

/** One changed record of a session's diff. */
export interface DiffEntry {
  table: string;
  id: string;
  op: 'insert' | 'update' | 'delete';
  fields?: string[];
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}
