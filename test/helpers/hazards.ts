import { readFileSync } from 'node:fs';
import type { Test } from 'tap';
import type { HazardEvent as EngineEvent } from '../../hazards/event.js';
import { retailFixture } from './retail.js';
import { startServer, type TestServer } from './server.js';

// What the hazard tests (test/hazards/*.test.ts) share: the journal's types, the scripts that replay
// a schedule of calls, and the checks every kind makes of its schedule (seeded, per session) and of
// hints mode (the same schedule, only the hint added). What a kind does lives in the kind's file.

/** A JSON object as the tests read it: an answer, a tool's arguments. */
export type Obj = Record<string, any>;

/** A hazard injected into a call, as the journal records it (every scenario has a hint). */
export interface HazardEvent extends EngineEvent {
  hint: string;
}

/** One call as GET /sessions/{id}/journal shows it. */
export interface JournalEntry {
  seq: number;
  /** The session clock's time of the call, ISO 8601. */
  at: string;
  domain: string;
  tool: string;
  call: number;
  args: Obj;
  status: number;
  result?: unknown;
  problem?: Obj;
  changes: unknown[];
  hazards: HazardEvent[];
}

/** An answer without its `_hint` member: what hints mode must leave as it was. */
const withoutHint = ({ _hint, ...rest }: Obj) => rest;

/** The numbers (counting from 1) of the calls that carry a hazard event. */
export const hitCalls = (events: HazardEvent[][]) => events.flatMap((list, i) => (list.length > 0 ? [i + 1] : []));

/** The last journal entry of a session. */
export const lastEntry = async (server: TestServer, session: string) => (await server.journal<JournalEntry>(session)).at(-1)!;

/** A session's journal reduced to what a schedule is made of: tool, call number, status and hazard events. */
export const journalSchedule = async (server: TestServer, session: string) =>
  (await server.journal<JournalEntry>(session)).map((e) => ({ tool: e.tool, call: e.call, status: e.status, hazards: e.hazards }));

/** The retail records a session changed, as GET /sessions/{id}/diff lists them. */
export const retailDiff = async (server: TestServer, session: string) =>
  (await server.request('GET', `/sessions/${session}/diff`)).body.retail as { table: string; id: string; op: string }[];

/** Two servers under the same hazard variables, the second in hints mode. */
export async function startHintedPair(t: Test, env: NodeJS.ProcessEnv) {
  return { plain: await startServer(t, { hazardEnv: env }), hinted: await startServer(t, { hazardEnv: { ...env, HAZARD_HINTS: '1' } }) };
}

/** A cart whose items can all be ordered, its owner's card (or PayPal) that pays any total, and checkout's arguments. */
export function payableCart() {
  const db = retailFixture();
  const cart = Object.values(db.carts).find(
    (c) =>
      c.items.every((l) => db.products[l.product_id]?.variants[l.item_id]?.available) &&
      Object.values(db.users[c.user_id]!.payment_methods).some((m) => m.source !== 'gift_card'),
  )!;
  const card = Object.values(db.users[cart.user_id]!.payment_methods).find((m) => m.source !== 'gift_card')!;
  return { cart, card, checkoutArgs: { user_id: cart.user_id, payment_method_id: card.id } };
}

// ---------------------------------------------------------------------------------------------
// Per-call hazards: a script of calls, replayed in one or more sessions.

/** One call of a script: a retail tool and its arguments. */
type ScriptCall = readonly [tool: string, args: unknown];

/** The calls a session makes: `rounds` rounds, round i being `round(i)`. */
export interface Script {
  rounds: number;
  round(i: number): readonly ScriptCall[];
}

/** What one session of a run saw: the hazard events of each call (in journal order) and the answers. */
export interface SessionRun {
  events: HazardEvent[][];
  bodies: Obj[];
}

/** How many calls a session makes under `script`. */
const callsOf = (script: Script) => Array.from({ length: script.rounds }, (_, i) => script.round(i).length).reduce((a, b) => a + b, 0);

/**
 * Starts a server with the hazard variables `env`, creates `sessions`, plays `script` (each round in
 * every session in turn, so the sessions' calls interleave) and returns, per session, the hazard
 * events of its calls and the answers it got.
 */
async function runSchedule(t: Test, env: NodeJS.ProcessEnv, sessions: readonly string[], script: Script): Promise<Record<string, SessionRun>> {
  const server = await startServer(t, { hazardEnv: env });
  for (const id of sessions) await server.newSession({ id });
  const runs: Record<string, SessionRun> = Object.fromEntries(sessions.map((id) => [id, { events: [], bodies: [] }]));
  for (let i = 0; i < script.rounds; i++) {
    for (const id of sessions) for (const [tool, args] of script.round(i)) runs[id]!.bodies.push((await server.call('retail', tool, args, id)).body);
  }
  for (const id of sessions) runs[id]!.events = (await server.journal<JournalEntry>(id)).map((entry) => entry.hazards);
  return runs;
}

/** The session the schedule checks look at, and the busy neighbours around it. */
const ALONE = ['s'];
const CROWDED = ['other', 's', 'third'];

/** Plays `script` in session 's' alone on a fresh server. */
export const runAlone = async (t: Test, env: NodeJS.ProcessEnv, script: Script) => (await runSchedule(t, env, ALONE, script))['s']!;

/**
 * Plays `script` in session 's' between two busy neighbours: its events and answers must be those
 * of `alone` (the same variables, the session alone). Returns the crowded run.
 */
export async function expectIndifferentToNeighbours(
  t: Test,
  env: NodeJS.ProcessEnv,
  script: Script,
  alone: SessionRun,
  messages: { events?: string; bodies?: string } = {},
): Promise<SessionRun> {
  const crowded = (await runSchedule(t, env, CROWDED, script))['s']!;
  t.same(crowded.events, alone.events, messages.events ?? "other sessions' calls do not change the session's schedule");
  if (messages.bodies === undefined) t.same(crowded.bodies, alone.bodies);
  else t.same(crowded.bodies, alone.bodies, messages.bodies);
  return crowded;
}

export interface SeededScheduleOptions {
  /** The hazard variables, at a probability that hits some calls and not others, with HAZARD_SEED. */
  env: NodeJS.ProcessEnv;
  script: Script;
  /** Messages for what a restart must repeat, and what the neighbours must not change. */
  messages?: { restartEvents?: string; restartBodies?: string; crowdedEvents?: string; crowdedBodies?: string };
}

/**
 * The schedule is seeded: the same seed gives the same events and answers across a restart; the
 * schedule hits some calls and not all; another seed (1 to 20) gives another one; and other
 * sessions' calls change neither the events nor the answers of a session.
 */
export async function expectSeededSchedule(t: Test, { env, script, messages = {} }: SeededScheduleOptions) {
  const seed = env['HAZARD_SEED'];
  if (seed === undefined) throw new Error('expectSeededSchedule needs HAZARD_SEED in env');
  const first = await runAlone(t, env, script);
  const again = await runAlone(t, env, script);
  t.same(again.events, first.events, messages.restartEvents ?? 'same seed across a restart: same hits');
  t.same(again.bodies, first.bodies, messages.restartBodies ?? 'and the same answers');
  const hits = hitCalls(first.events);
  t.ok(hits.length > 0 && hits.length < callsOf(script), `p=0.5 hits some calls, not all (${hits.join(',')})`);

  let differs: string | undefined;
  for (let other = 1; other <= 20 && differs === undefined; other++) {
    if (String(other) === seed) continue;
    const run = await runAlone(t, { ...env, HAZARD_SEED: String(other) }, script);
    if (hitCalls(run.events).join() !== hits.join()) differs = String(other);
  }
  t.ok(differs, `seed ${differs} gives another schedule than seed ${seed}`);

  const crowded = await expectIndifferentToNeighbours(t, env, script, first, { events: messages.crowdedEvents, bodies: messages.crowdedBodies });
  return { first, again, crowded };
}

export interface HintsOnlyOptions {
  env: NodeJS.ProcessEnv;
  script: Script;
  /** The `_hint` a call with a hazard carries in hints mode. */
  hint: string;
  /** Put before the message of the events check (e.g. 'seed 3: '). */
  label?: string;
}

/**
 * Hints mode changes nothing but the hint: the same journal events; each call with a hazard carries
 * `_hint`, no other call does; without `_hint` every answer is the one given without hints mode.
 * Returns the number of calls that had a hazard.
 */
export async function expectHintsOnly(t: Test, { env, script, hint, label = '' }: HintsOnlyOptions): Promise<number> {
  const plain = await runAlone(t, env, script);
  const hinted = await runAlone(t, { ...env, HAZARD_HINTS: '1' }, script);
  t.same(hinted.events, plain.events, `${label}same journal events`);
  let hit = 0;
  for (const [i, body] of hinted.bodies.entries()) {
    if (plain.events[i]!.length > 0) {
      hit += 1;
      t.equal(body['_hint'], hint, `call ${i + 1}: hinted`);
    } else t.notOk('_hint' in body, `call ${i + 1}: no hazard, no hint`);
    t.same(withoutHint(body), plain.bodies[i], `call ${i + 1}: otherwise the same answer`);
  }
  return hit;
}

// ---------------------------------------------------------------------------------------------
// Session-wide failures (outage, feature_limit): a session fails on every call of the tool or on none.

export interface StatusDrawOptions {
  /** The call each session makes three times. */
  call: ScriptCall;
  /** The status of a call the hazard hit. */
  hitStatus: number;
  /** How many sessions (s0, s1, …). */
  count: number;
  /** What every session must be, after '{session}: ' (e.g. 'down for the whole session or not at all'). */
  whole: string;
  /** Run after each of a session's calls (and its neighbour's, when interleaved). */
  afterEach?(t: Test, server: TestServer, session: string): Promise<unknown>;
}

/**
 * On a fresh server, each session makes `call` three times; with `interleave`, another session
 * (x{i}-{k}) makes the same call after each. Each session must answer the same status every time.
 * Returns the sessions the hazard hit and every session's journal (call, status, events).
 */
export async function drawStatuses(t: Test, env: NodeJS.ProcessEnv, options: StatusDrawOptions, interleave = false) {
  const [tool, args] = options.call;
  const server = await startServer(t, { hazardEnv: env });
  const hit: string[] = [];
  const events: unknown[] = [];
  for (let i = 0; i < options.count; i++) {
    const session = `s${i}`;
    const statuses: number[] = [];
    for (let k = 0; k < 3; k++) {
      statuses.push((await server.call('retail', tool, args, session)).status);
      if (interleave) await server.call('retail', tool, args, `x${i}-${k}`);
      await options.afterEach?.(t, server, session);
    }
    t.ok(
      statuses.every((s) => s === statuses[0]),
      `${session}: ${options.whole} (${statuses.join(', ')})`,
    );
    if (statuses[0] === options.hitStatus) hit.push(session);
    events.push(...(await server.journal<JournalEntry>(session)).map((e) => ({ session, call: e.call, status: e.status, hazards: e.hazards })));
  }
  return { hit, events };
}

/**
 * A session-wide failure is drawn once per session from the seed and the session id: at p=0.5
 * some sessions are hit (more than 2, fewer than count - 2); a restart repeats the draws, statuses
 * and events; interleaved neighbours change nothing; another seed hits other sessions. Returns the draw.
 */
export async function expectSeededStatusDraws(
  t: Test,
  options: StatusDrawOptions & { env: NodeJS.ProcessEnv; otherSeed: string; messages: { split: string; reseeded: string } },
) {
  const { env, otherSeed, messages } = options;
  const first = await drawStatuses(t, env, options);
  t.ok(first.hit.length > 2 && first.hit.length < options.count - 2, `p=0.5: some sessions ${messages.split} (${first.hit.join(' ')})`);
  t.same(await drawStatuses(t, env, options), first, 'the same sessions, statuses and events across a restart');
  t.same(await drawStatuses(t, env, options, true), first, "other sessions' calls in between change nothing");
  t.notSame((await drawStatuses(t, { ...env, HAZARD_SEED: otherSeed }, options)).hit, first.hit, messages.reseeded);
  return first;
}

// ---------------------------------------------------------------------------------------------
// Session-wide hazards (specification, invocation): drawn once per session, seen in its listings.

/** The canonical OpenAPI document of the retail domain, as generated into openapi/. */
export const canonicalRetailDocument = () => JSON.parse(readFileSync(new URL('../../openapi/retail.json', import.meta.url), 'utf8'));

/** Names of `count` sessions: prefix-0, prefix-1, … */
export const sessionIds = (prefix: string, count = 12) => Array.from({ length: count }, (_, i) => `${prefix}-${i}`);

/** A tool as a listing shows it. */
export interface Listed {
  name: string;
  description: string;
  input: { properties: Record<string, { description?: string; default?: unknown; minimum?: number; maximum?: number }>; required?: string[] };
}

const FORMATS = ['native', 'openai', 'anthropic', 'mcp'] as const;

/** A session's tools as each listing format (native, openai, anthropic, mcp) and its OpenAPI document ('openapi') show them. */
export async function toolViews(server: TestServer, session: string): Promise<Record<string, Listed[]>> {
  const out: Record<string, Listed[]> = {};
  for (const format of FORMATS) {
    const body = (await server.request('GET', `/s/${session}/retail/tools?format=${format}`)).body;
    out[format] =
      format === 'openai'
        ? body.map((e: any) => ({ name: e.function.name, description: e.function.description, input: e.function.parameters }))
        : format === 'anthropic'
          ? body.map((e: any) => ({ name: e.name, description: e.description, input: e.input_schema }))
          : format === 'mcp'
            ? body.tools.map((e: any) => ({ name: e.name, description: e.description, input: e.inputSchema }))
            : body.tools.map((e: any) => ({ name: e.name, description: e.description, input: e.input_schema }));
  }
  const document = (await server.request('GET', `/s/${session}/retail/openapi.json`)).body;
  out['openapi'] = Object.entries(document.paths as Record<string, { post?: any }>)
    .filter(([path, item]) => path.startsWith('/retail/tools/') && item.post)
    .map(([path, item]) => ({
      name: path.slice('/retail/tools/'.length),
      description: item.post.description,
      input: item.post.requestBody?.content['application/json'].schema,
    }));
  return out;
}

/** The tool named `name` in a listing. */
export const toolIn = (listed: Listed[], name: string) => listed.find((tool) => tool.name === name)!;

/**
 * Hints mode adds the hint to one tool's description, in parentheses, and changes nothing else of
 * any listing: compares every tool of every view.
 */
export function expectOnlyDescriptionHint(t: Test, plainViews: Record<string, Listed[]>, hintViews: Record<string, Listed[]>, toolName: string, hint: string) {
  for (const view of Object.keys(plainViews)) {
    for (const tool of plainViews[view]!) {
      const other = toolIn(hintViews[view]!, tool.name);
      if (tool.name === toolName) t.same(other, { ...tool, description: `${tool.description} (${hint})` }, `${view}: only the hint is added`);
      else t.same(other, tool, `${view}: ${tool.name} unchanged`);
    }
  }
}

/** What a probe saw of one session: flags such as [documented, enforced]. */
export type Draw = readonly boolean[];

/**
 * Observes one session. `between` makes other sessions' calls; a probe with several steps calls it
 * between them (it does nothing unless the run is crowded).
 */
export type Probe<Row extends Draw> = (server: TestServer, session: string, between: () => Promise<unknown>) => Promise<Row>;

/** The probe's row for each session, one session after the other. */
export async function probeSessions<Row extends Draw>(
  server: TestServer,
  sessions: readonly string[],
  probe: Probe<Row>,
  between: () => Promise<unknown> = async () => {},
) {
  const rows: Row[] = [];
  for (const session of sessions) rows.push(await probe(server, session, between));
  return rows;
}

/** How a kind's session-wide draw is observed: the variables, the sessions, the probe, and which rows have the hazard. */
export interface SessionDraws<Row extends Draw> {
  /** The hazard variables, at p=0.5, with HAZARD_SEED. */
  env: NodeJS.ProcessEnv;
  sessions: readonly string[];
  probe: Probe<Row>;
  /** Whether the probe saw the hazard on. */
  isOn(row: Row): boolean;
}

export interface SessionDrawOptions<Row extends Draw> extends SessionDraws<Row> {
  /** A seed that gives these sessions another schedule. */
  otherSeed: string;
  /** Checks of one session's row (that what the listing says and what the tool does agree). */
  eachSession(t: Test, row: Row, session: string): void;
  /** Other sessions, each playing its script, before the sessions are probed on the busy server. */
  neighboursFirst?: { sessions: readonly string[]; script: Script };
  /** Other sessions' calls between the probe's steps on the busy server. */
  neighboursBetween?(server: TestServer): () => Promise<unknown>;
  messages: {
    /** How the sessions split, after 'p=0.5: some sessions ' (e.g. 'drift and some do not'). */
    split: string;
    restart: string;
    reseeded?: string;
  };
}

/**
 * A session-wide hazard is drawn once per session from the seed and the session id: each session's
 * row passes `eachSession`; some sessions have it and some not; a restart repeats the rows; another
 * seed changes them; and busy neighbours (probed in reverse order) change no session's row.
 * Returns the rows.
 */
export async function expectSeededSessionDraws<Row extends Draw>(t: Test, options: SessionDrawOptions<Row>): Promise<Row[]> {
  const { env, otherSeed, sessions, probe, isOn, eachSession, messages } = options;
  const first = await probeSessions(await startServer(t, { hazardEnv: env }), sessions, probe);
  for (const [i, row] of first.entries()) eachSession(t, row, sessions[i]!);
  const on = first.map(isOn);
  t.ok(on.includes(true) && on.includes(false), `p=0.5: some sessions ${messages.split} (${on.join(',')})`);

  t.same(await probeSessions(await startServer(t, { hazardEnv: env }), sessions, probe), first, messages.restart);
  const reseeded = await probeSessions(await startServer(t, { hazardEnv: { ...env, HAZARD_SEED: otherSeed } }), sessions, probe);
  t.not(JSON.stringify(reseeded), JSON.stringify(first), messages.reseeded ?? 'another seed, another schedule');

  const busy = await startServer(t, { hazardEnv: env });
  const neighbours = options.neighboursFirst;
  for (const id of neighbours?.sessions ?? []) {
    for (let i = 0; i < neighbours!.script.rounds; i++) for (const [tool, args] of neighbours!.script.round(i)) await busy.call('retail', tool, args, id);
  }
  const between = options.neighboursBetween?.(busy);
  t.same(await probeSessions(busy, [...sessions].reverse(), probe, between), [...first].reverse(), "other sessions' calls change no session's schedule");
  return first;
}

/**
 * Hints mode draws the same sessions: probes both servers of a hinted pair and compares. Returns the
 * pair and the first session that has the hazard.
 */
export async function expectHintsKeepDraws<Row extends Draw>(t: Test, { env, sessions, probe, isOn, message }: SessionDraws<Row> & { message: string }) {
  const { plain, hinted } = await startHintedPair(t, env);
  const plainRows = await probeSessions(plain, sessions, probe);
  t.same(await probeSessions(hinted, sessions, probe), plainRows, message);
  const index = plainRows.findIndex(isOn);
  if (index < 0) throw new Error('no session has the hazard');
  return { plain, hinted, session: sessions[index]! };
}
