import { Pool } from 'undici';
import type { FuzzCase } from './cases.js';

/** A broken promise of the server, with what showed it. */
export interface Violation {
  rule: string;
  case: FuzzCase;
  session: string;
  status: number;
  body: string;
}

export interface Tally {
  requests: number;
  byStatus: Map<number, number>;
  /** Server errors (5xx, or no answer at all) with an injected hazard, and without one. */
  injected5xx: number;
  unexplained5xx: number;
  /** Refused calls (4xx) after which the session's data differed. */
  changedOn4xx: number;
  /** Calls a hazard struck, as the sessions count them (their `hazard_hits`). */
  struck: number;
  violations: Violation[];
}

export interface CheckerOptions {
  /** Hazards may strike: a 5xx or a dropped connection is fine when the journal says one did. */
  hazards: boolean;
  /** Bearer token for the admin routes (reset), when the server requires one. */
  adminToken?: string;
  /** A session whose diff grows past this many bytes is reset, to keep checks cheap. */
  resetAbove?: number;
}

/** A session as last seen: its diff, its journaled calls, and the calls a hazard struck. */
interface Observed {
  diff: string;
  calls: number;
  struck: number;
}

const PROBLEM = /^application\/problem\+json/;
/** Problems of a body refused while it is read, before any tool runs. */
const BODY_CODES = /"code":"(malformed_json|forbidden_json_key|json_too_deep|empty_json_body)"/;

/**
 * Sends fuzz cases to a live server and checks what it promises for each: never a 5xx without an
 * injected hazard; a refused call (4xx) is problem JSON, names the broken field, and changes
 * nothing; an inherited name in an id field is never found; a body refused before the tool runs is
 * not journaled, and every call that runs is journaled once. Calls of one session run one at a time.
 */
export class Checker {
  readonly tally: Tally = { requests: 0, byStatus: new Map(), injected5xx: 0, unexplained5xx: 0, changedOn4xx: 0, struck: 0, violations: [] };
  private readonly pool: Pool;
  private readonly known = new Map<string, Observed>();

  constructor(
    readonly origin: string,
    private readonly options: CheckerOptions,
  ) {
    this.pool = new Pool(origin, { connections: 16, pipelining: 1 });
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  /** Runs one case in `session`; returns the violations it found (also kept in the tally). */
  async check(session: string, fuzz: FuzzCase): Promise<Violation[]> {
    const before = this.known.get(session) ?? (await this.open(session));
    const { status, type, text } = await this.send(session, fuzz);
    const after = await this.observe(session);
    this.known.set(session, after);
    this.count(status);
    const found: Violation[] = [];
    const fail = (rule: string) => found.push({ rule, case: fuzz, session, status, body: text.slice(0, 600) });

    const ran = after.calls - before.calls;
    this.tally.struck += after.struck - before.struck;
    const refusedBody = status === 413 || status === 415 || (status === 400 && BODY_CODES.test(text));
    if (fuzz.kind === 'raw' && !refusedBody) fail('a body that is not arguments reached the tool');
    if (refusedBody && ran !== 0) fail('a body refused before the tool ran was journaled');
    if (!refusedBody && ran !== 1) fail(`a call was journaled ${ran} times`);

    if (status >= 500 || status === 0) {
      if (this.options.hazards && ran === 1 && (await this.injected(session, after.calls))) this.tally.injected5xx += 1;
      else {
        this.tally.unexplained5xx += 1;
        fail('a server error without an injected hazard');
      }
    } else if (status >= 400) {
      if (after.diff !== before.diff) {
        this.tally.changedOn4xx += 1;
        fail('a refused call changed the data');
      }
      this.checkProblem(fuzz, status, type, text, fail);
    } else if (!this.options.hazards) {
      if (fuzz.inherited) fail(`an inherited name was found as an id (${fuzz.inherited})`);
      if (fuzz.broken) fail(`arguments with ${fuzz.broken} broken were accepted`);
    }
    if (after.diff.length > (this.options.resetAbove ?? 200_000)) await this.reset(session);
    this.tally.violations.push(...found);
    return found;
  }

  /** Every answer a client can read must still come: journal, state, diff, session, health. */
  async stillServes(sessions: readonly string[]): Promise<string[]> {
    const broken: string[] = [];
    for (const path of [
      '/health',
      '/sessions',
      '/hazards',
      ...sessions.flatMap((s) => [
        `/sessions/${s}`,
        `/sessions/${s}/journal`,
        `/sessions/${s}/journal?format=jsonl`,
        `/sessions/${s}/state`,
        `/sessions/${s}/diff`,
      ]),
    ]) {
      const reply = await this.pool.request({ method: 'GET', path });
      await reply.body.dump();
      if (reply.statusCode !== 200) broken.push(`GET ${path}: ${reply.statusCode}`);
    }
    return broken;
  }

  private checkProblem(fuzz: FuzzCase, status: number, type: string, text: string, fail: (rule: string) => void): void {
    let problem: { type?: unknown; title?: unknown; status?: unknown; detail?: unknown; code?: unknown; errors?: { field?: unknown }[] };
    try {
      problem = JSON.parse(text);
    } catch {
      // A hazard may answer in another server's style (HTML, text); the API itself never does.
      if (!this.options.hazards) fail('a 4xx that is not JSON');
      return;
    }
    if (!PROBLEM.test(type) || typeof problem.detail !== 'string' || typeof problem.code !== 'string' || problem.status !== status) {
      if (!this.options.hazards) fail('a 4xx that is not problem JSON');
      return;
    }
    if (problem.code !== 'invalid_input') {
      // A body refused while it is read (a `__proto__` key inside a value, say) never reaches validation.
      const refusedBody = BODY_CODES.test(text) || status === 413;
      if (fuzz.broken && !refusedBody && !this.options.hazards) fail(`${fuzz.broken} was broken, but the problem is ${problem.code}`);
      return;
    }
    const fields = (problem.errors ?? []).map((e) => e.field);
    if (fields.length === 0 || fields.some((f) => typeof f !== 'string' || f === '')) fail('an invalid_input problem without its fields');
    const broken = fuzz.broken;
    if (broken && !fields.some((f) => f === broken || (typeof f === 'string' && f.startsWith(`${broken}.`)))) fail(`the problem does not name ${broken}`);
  }

  private count(status: number): void {
    this.tally.requests += 1;
    this.tally.byStatus.set(status, (this.tally.byStatus.get(status) ?? 0) + 1);
  }

  private async send(session: string, fuzz: FuzzCase): Promise<{ status: number; type: string; text: string }> {
    const { body } = fuzz;
    const [text, contentType] = 'json' in body ? [JSON.stringify(body.json), 'application/json'] : [body.raw, body.contentType];
    try {
      const reply = await this.pool.request({
        method: 'POST',
        path: `/s/${session}/${fuzz.domain}/tools/${fuzz.tool}`,
        headers: { 'content-type': contentType },
        body: text,
      });
      return { status: reply.statusCode, type: String(reply.headers['content-type'] ?? ''), text: await reply.body.text() };
    } catch (error) {
      return { status: 0, type: '', text: String(error) };
    }
  }

  /** Creates the session (if need be) and observes it. */
  private async open(session: string): Promise<Observed> {
    const reply = await this.pool.request({
      method: 'POST',
      path: '/sessions',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: session }),
    });
    await reply.body.dump();
    return this.observe(session);
  }

  /** The session's committed data (its diff), how many calls it journaled and how many of them a hazard struck. */
  private async observe(session: string): Promise<Observed> {
    const [diff, summary] = await Promise.all([this.get(`/sessions/${session}/diff`), this.get(`/sessions/${session}`)]);
    if (diff.status !== 200 || summary.status !== 200) throw new Error(`session ${session} cannot be observed: ${diff.status} ${summary.status}`);
    const { calls, hazard_hits } = JSON.parse(summary.text) as { calls: number; hazard_hits: Record<string, number> };
    return { diff: diff.text, calls, struck: Object.values(hazard_hits).reduce((sum, hits) => sum + hits, 0) };
  }

  /** Whether the session's call number `seq` records an injected hazard. */
  private async injected(session: string, seq: number): Promise<boolean> {
    const { text } = await this.get(`/sessions/${session}/journal?since=${seq - 1}`);
    const [entry] = JSON.parse(text) as { hazards: unknown[] }[];
    return entry !== undefined && entry.hazards.length > 0;
  }

  private async reset(session: string): Promise<void> {
    const headers = this.options.adminToken ? { authorization: `Bearer ${this.options.adminToken}` } : {};
    const reply = await this.pool.request({ method: 'POST', path: `/sessions/${session}/reset`, headers });
    await reply.body.dump();
    this.known.set(session, await this.observe(session));
  }

  private async get(path: string): Promise<{ status: number; text: string }> {
    const reply = await this.pool.request({ method: 'GET', path });
    return { status: reply.statusCode, text: await reply.body.text() };
  }
}
