import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Test } from 'tap';
import { domains } from '../../domains/index.js';
import type { Reply, TestServer } from '../helpers/server.js';
import { headerText } from '../../lib/text.js';
import { Blocked } from '../../agents/calls.js';
import { corpusJson, formatTellTable, KNOWN_TELLS, TELL_THRESHOLD, type TellCorpus, tellTable } from './tells.js';
import type { Obj, ToolClient as ProbeClient } from '../../agents/tool-client.js';

// The per-scenario proof that a hazard bites and can be recovered from. For every scenario a domain
// declares, a probe scripts one task twice: as a literal client does it (takes the first answer at
// face value, never retries, never re-reads the listing, calls what it is told to) and as a
// recovering client does it (what the agent can discover from what it sees plus the domain policy).
//
// - The truth is the literal script run in a session without hazards: its answer and end state.
// - Under the scenario (its kind on its tool, probability 1), the literal script must end wrong
//   (another answer or end state) or blocked (it gets no usable answer), and the journal must show
//   the hazard; the recovering script must end with the truth (or the honest partial answer the
//   probe names), with the same end state.
// - Hints mode must put the hint somewhere the agent sees it, for every hazarded call that got any
//   HTTP answer at all.

export type { Obj, ToolClient as ProbeClient } from '../../agents/tool-client.js';
export { Blocked } from '../../agents/calls.js';

export interface Probe {
  /** The scenario it proves: its kind and tool (a domain declares at most one per kind and tool). */
  kind: string;
  tool: string;
  /** Seeds to run it under (default three); the scenario must bite and be recovered under each. */
  seeds?: readonly string[];
  /** What the literal client does; its return value is its answer. Throw Blocked when it cannot go on. */
  naive(client: ProbeClient): Promise<unknown>;
  /** What the recovering client does. */
  recover(client: ProbeClient): Promise<unknown>;
  /**
   * When the scenario says the recovery is an honest partial answer: what the recovering client must
   * end with, given the hazard-free answer. The end state must still be the hazard-free one.
   */
  partial?: { name: string; expect(truth: unknown): unknown };
  /** The end state as compared: by default the domain's changed records with times masked. */
  endState?(diff: Obj[]): unknown;
  /** Extra session options (clock). */
  session?: Obj;
  /** Other hazards of this scenario's domain that must be on too (e.g. a decoy's canonical tool). */
  with?: Obj;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/;

/** Times written by a call follow the session clock, which advances per call: masked. */
export function maskTimes(value: unknown): unknown {
  if (typeof value === 'string') return ISO_TIME.test(value) ? '<time>' : value;
  if (Array.isArray(value)) return value.map(maskTimes);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskTimes(v)]));
  return value;
}

const defaultEndState = (diff: Obj[]) => diff.map(({ table, id, op, after }) => ({ table, id, op, after: maskTimes(after) }));

/** A client of one session; every reply it gets is kept in `replies`, in call order (as the journal has them), and its tool in `tools`. */
function client(server: TestServer, domain: string, session: string, replies: Reply[] = [], tools: string[] = []): ProbeClient {
  const call = async (tool: string, args: Obj = {}) => {
    const reply = await server.attempt(domain, tool, args, session);
    replies.push(reply);
    tools.push(tool);
    return reply;
  };
  return {
    domain,
    session,
    call,
    listing: async () => (await server.request('GET', `/s/${session}/${domain}/tools?format=openai`)).body as Obj[],
    policy: async () => (await server.request('GET', `/${domain}/policy`)).text,
    get: (path) => server.request('GET', path),
  };
}

interface Outcome {
  blocked?: string;
  answer?: unknown;
  state: unknown;
}

interface Run {
  outcome: Outcome;
  journal: Obj[];
  replies: Reply[];
  tools: string[];
}

/** A readable session id, within the 64 characters ids may have: shortened, with a hash to stay unique, when too long. */
function sessionId(domain: string, probe: Probe, seed: string, role: string): string {
  const id = `${domain}.${probe.kind}.${probe.tool}.${seed}.${role}`;
  if (id.length <= 64) return id;
  const hash = createHash('sha256').update(id).digest('hex').slice(0, 8);
  return `${id.slice(0, 64 - hash.length - 1)}.${hash}`;
}

/**
 * Runs a script in a new session and deletes it. Session ids are fixed by the probe, the seed and the
 * role, so that every draw (which notice, which fault) is the same on every run of the suite.
 */
async function run(server: TestServer, domain: string, probe: Probe, role: string, script: (c: ProbeClient) => Promise<unknown>, options: Obj): Promise<Run> {
  const session = await server.newSession({ ...probe.session, ...options, id: sessionId(domain, probe, String(options['seed']), role) });
  let outcome: Outcome;
  const replies: Reply[] = [];
  const tools: string[] = [];
  const c = client(server, domain, session, replies, tools);
  try {
    const answer = await script(c);
    outcome = { answer: JSON.parse(JSON.stringify(answer ?? null)), state: undefined };
  } catch (error) {
    if (!(error instanceof Blocked)) throw error;
    outcome = { blocked: error.message, state: undefined };
  }
  const diff = ((await server.request('GET', `/sessions/${session}/diff`)).body as Obj)[domain] as Obj[];
  outcome.state = (probe.endState ?? defaultEndState)(diff);
  const journal = (await server.journal<Obj>(session)) as Obj[];
  await server.request('DELETE', `/sessions/${session}`);
  return { outcome, journal, replies, tools };
}

const hazardOf = (entry: Obj, kind: string) => (entry['hazards'] as Obj[]).find((event) => event['kind'] === kind);

/** The session hazard settings that switch on exactly this scenario (and the probe's companions). */
const scenarioHazards = (domain: string, probe: Probe, hints = false) => ({
  tools: { [`${domain}__${probe.tool}`]: { [probe.kind]: 1 }, ...probe.with },
  hints,
});

const DEFAULT_SEEDS = ['1', '2', '3'];

/** Puts a hazard-free run's answers in the corpus, by tool. */
function collectClean(corpus: TellCorpus | undefined, run: Run, probe: Probe): void {
  run.replies.forEach((reply, i) => {
    corpus?.addClean(probe.kind, probe.tool, run.tools[i]!, reply);
  });
}

/** Puts the answers of a hazarded run that the probe's kind struck in the corpus, under the scenario. */
function collectStruck(corpus: TellCorpus | undefined, run: Run, probe: Probe): void {
  if (!corpus) return;
  let j = 0;
  run.replies.forEach((reply, i) => {
    // Calls the server never journaled (an unknown route) have no entry: entries are matched by tool, in order.
    while (j < run.journal.length && run.journal[j]!['tool'] !== run.tools[i]) j++;
    const entry = run.journal[j++];
    if (entry && hazardOf(entry, probe.kind)) corpus.addStruck(probe.kind, probe.tool, run.tools[i]!, reply);
  });
}

/** Runs one probe: truth, literal and recovering clients, under each seed; then hints mode. Answers go to `corpus` when given. */
export async function proveScenario(t: Test, server: TestServer, domain: string, probe: Probe, corpus?: TellCorpus): Promise<void> {
  const declared = declaredScenario(domain, probe);
  t.ok(declared, `${domain} declares ${probe.kind} on ${probe.tool}`);
  t.equal(probe.partial !== undefined, declared?.partial !== undefined, 'the probe expects a partial answer exactly when the scenario declares one');
  for (const seed of probe.seeds ?? DEFAULT_SEEDS) {
    const truth = await run(server, domain, probe, 'truth', probe.naive, { seed });
    collectClean(corpus, truth, probe);
    t.notOk(truth.outcome.blocked, `seed ${seed}: without hazards the literal client gets an answer (${truth.outcome.blocked ?? 'ok'})`);

    const literal = await run(server, domain, probe, 'literal', probe.naive, { seed, hazards: scenarioHazards(domain, probe) });
    collectStruck(corpus, literal, probe);
    t.ok(
      literal.journal.some((entry) => hazardOf(entry, probe.kind)),
      `seed ${seed}: the journal shows the ${probe.kind} hazard`,
    );
    const wrong =
      JSON.stringify(literal.outcome.answer) !== JSON.stringify(truth.outcome.answer) ||
      JSON.stringify(literal.outcome.state) !== JSON.stringify(truth.outcome.state);
    const ends = literal.outcome.blocked !== undefined ? 'blocked' : wrong ? 'wrong' : 'right';
    t.not(
      ends,
      'right',
      `seed ${seed}: the literal client ends wrong or blocked (${literal.outcome.blocked ?? JSON.stringify(literal.outcome.answer)?.slice(0, 200)})`,
    );
    if (declared?.naive) t.equal(ends, declared.naive.ends, `seed ${seed}: the literal client ends ${declared.naive.ends}, as the scenario declares`);

    const recovering = await run(server, domain, probe, 'recovering', probe.recover, { seed, hazards: scenarioHazards(domain, probe) });
    collectStruck(corpus, recovering, probe);
    t.notOk(recovering.outcome.blocked, `seed ${seed}: the recovering client is not blocked (${recovering.outcome.blocked ?? 'ok'})`);
    const expected = probe.partial ? probe.partial.expect(truth.outcome.answer) : truth.outcome.answer;
    t.same(
      recovering.outcome.answer,
      expected,
      `seed ${seed}: the recovering client ends with ${probe.partial ? `the honest partial answer (${probe.partial.name})` : 'the hazard-free answer'}`,
    );
    t.same(recovering.outcome.state, truth.outcome.state, `seed ${seed}: and the hazard-free end state`);

    const clean = await run(server, domain, probe, 'clean', probe.recover, { seed });
    collectClean(corpus, clean, probe);
    t.same(clean.outcome.answer, truth.outcome.answer, `seed ${seed}: the recovery is also right when nothing goes wrong`);

    const hinted = await run(server, domain, probe, 'hinted', probe.naive, { seed, hazards: scenarioHazards(domain, probe, true) });
    expectHinted(t, hinted, probe.kind, `seed ${seed}`);
  }
}

/**
 * Hints mode: every hazarded call that got an HTTP answer carries the hint, in its body or an x-hint
 * header. (Only a connection dropped without any answer cannot carry it.)
 */
function expectHinted(t: Test, run: Run, kind: string, label: string): void {
  run.journal.forEach((entry, i) => {
    const event = hazardOf(entry, kind);
    const reply = run.replies[i];
    if (!event || !reply || reply.status === 0) return;
    const hint = String(event['hint']);
    t.ok(
      reply.text.includes(JSON.stringify(hint).slice(1, -1)) || reply.headers['x-hint'] === headerText(hint),
      `${label}: call ${i + 1} (${reply.status}) carries the hint`,
    );
  });
}

const declaredScenario = (domain: string, probe: Probe) =>
  domains.find((d) => d.name === domain)?.hazards?.find((scenario) => scenario.kind === probe.kind && scenario.tool === probe.tool);

/** The scenarios a domain declares, as kind/tool keys. */
const declaredScenarios = (domain: string) => (domains.find((d) => d.name === domain)?.hazards ?? []).map((scenario) => `${scenario.kind}/${scenario.tool}`);

/** Every declared scenario of the domain has exactly one probe, and every probe a scenario. */
export function expectEveryScenarioProbed(t: Test, domain: string, probes: readonly Probe[]): void {
  const probed = probes.map((probe) => `${probe.kind}/${probe.tool}`);
  t.same([...probed].sort(), [...new Set(probed)].sort(), 'one probe per scenario');
  t.same([...new Set(probed)].sort(), declaredScenarios(domain).sort(), `${domain}: every declared scenario is probed, and nothing else`);
  const undeclared = (domains.find((d) => d.name === domain)?.hazards ?? []).filter((scenario) => !scenario.naive).map((s) => `${s.kind}/${s.tool}`);
  t.same(undeclared, [], `${domain}: every scenario declares what a literal client ends with`);
}

/**
 * No tells: over the domain's corpus (every probe, every seed), no single structural feature separates the
 * answers a hazard struck from the hazard-free answers of the same tool with a balanced accuracy above 0.75,
 * except for kinds that announce themselves by design (tells.ts names them and why).
 */
export function expectNoTells(t: Test, domain: string, corpus: TellCorpus): void {
  const rows = tellTable(corpus);
  const folder = process.env['TELLS_CORPUS'];
  if (folder) writeFileSync(join(folder, `${domain}.json`), corpusJson(corpus));
  t.comment(`${domain}: scenario, struck answers, clean answers, best single-feature accuracy, feature\n${formatTellTable(rows)}`);
  t.ok(rows.length > 0, `${domain}: ${rows.length} scenarios struck answers`);
  const tells = rows.filter((row) => !row.exempt && (row.accuracy ?? 0) > TELL_THRESHOLD);
  t.same(
    tells.filter((row) => !Object.hasOwn(KNOWN_TELLS, row.scenario)).map((row) => `${row.scenario}: ${row.feature} (${row.accuracy?.toFixed(2)})`),
    [],
    `${domain}: no structural feature tells a struck answer from a clean one (balanced accuracy ≤ ${TELL_THRESHOLD})`,
  );
  const known = Object.keys(KNOWN_TELLS).filter((scenario) => rows.some((row) => row.scenario === scenario));
  t.same(
    known.filter((scenario) => !tells.some((row) => row.scenario === scenario)),
    [],
    `${domain}: each known tell is still one (a removed tell leaves KNOWN_TELLS)`,
  );
}
