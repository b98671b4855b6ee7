import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ExpectedRefusal, tau2TaskId } from '../../lib/tau2-task.js';
import { type Matrix, NONE, summarise } from '../matrix.js';
import type { Tau2Run } from './run.js';

// The report of a tau2-bench run: what was loaded and skipped and how it is judged, success clean and under
// the profile with pass^k per agent, recovery per hazard kind, and injected faults counted apart from
// infrastructure errors. A run that could not be completed (`error`: the model endpoint or wildtools
// unreachable) is an infrastructure failure: listed apart, never counted in a rate.

/** What the server made of one domain's tasks.json. */
export interface Tau2Import {
  domain: string;
  loaded: number;
  skipped: { id: string; why: string }[];
  /** Natural-language assertions of the loaded tasks: they need an LLM judge, so are not scored. */
  nl_assertions: number;
  /** Per component of tau2-bench's reward basis, how many loaded tasks it decides. */
  reward_basis: Record<string, number>;
  /** Per component wildtools does not score (NL_ASSERTION, ENV_ASSERTION), the loaded tasks that have it in their basis. */
  unscored: Record<string, number>;
  /** Gold actions tau2-bench itself refuses on the hazard-free database: expected outcomes. */
  expected_refusals: (ExpectedRefusal & { id: string })[];
}

interface AgentLine {
  domain: string;
  agent: string;
  tasks: number;
  /** Runs completed (counted in the rates) and runs lost to an infrastructure failure (not counted). */
  runs: number;
  errors: number;
  /** Success (percent) of the completed runs; null when none was completed. */
  clean: number | null;
  hazard: number | null;
  /** Share of tasks (percent) whose k runs all succeeded, over the tasks whose k runs were all completed. */
  pass_k_clean: number | null;
  pass_k_hazard: number | null;
}

interface KindLine {
  agent: string;
  kind: string;
  /** Scenarios that hit a call, over the runs. */
  hits: number;
  recovered: number;
  recovery: number;
}

export interface Tau2Report {
  title: string;
  revision: string;
  profile: string;
  kinds: string[];
  seed: number;
  rate: number;
  k: number;
  domains: Tau2Import[];
  agents: AgentLine[];
  kinds_recovery: KindLine[];
  /** Hazard events the journals record: faults wildtools injected on purpose. */
  injected_faults: number;
  /**
   * Failures no hazard explains: calls answered 5xx without a hazard, and runs that could not be completed
   * (wildtools or the model endpoint unreachable), which are left out of every rate and pass^k.
   */
  infrastructure_errors: {
    failed_calls: number;
    runs: number;
    examples: string[];
    lost: { task: string; condition: string; agent: string; repetition: number; error: string }[];
  };
  matrix: Matrix;
  /** Completed runs that failed, with why (by the task's reward basis). */
  failures: { task: string; condition: string; agent: string; repetition: number; why: string }[];
}

const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((1000 * part) / whole) / 10);
const rate = (runs: readonly Tau2Run[]) => (runs.length === 0 ? null : percent(runs.filter((run) => run.success).length, runs.length));
const completed = (run: Tau2Run) => run.error === undefined;

/** pass^k: the share of tasks whose runs all succeeded, over the tasks none of whose runs was lost to an infrastructure failure. */
function passK(runs: readonly Tau2Run[]): number | null {
  const byTask = new Map<string, boolean | 'lost'>();
  for (const run of runs) {
    const before = byTask.get(run.task) ?? true;
    byTask.set(run.task, before === 'lost' || !completed(run) ? 'lost' : before && run.success);
  }
  const measured = [...byTask.values()].filter((value) => value !== 'lost');
  return measured.length === 0 ? null : percent(measured.filter(Boolean).length, measured.length);
}

function agentLines(runs: readonly Tau2Run[], profile: string): AgentLine[] {
  const lines: AgentLine[] = [];
  const agents = [...new Set(runs.map((run) => run.agent))];
  for (const domain of [...new Set(runs.map((run) => run.domain)), 'all']) {
    for (const agent of agents) {
      const mine = runs.filter((run) => run.agent === agent && (domain === 'all' || run.domain === domain));
      const clean = mine.filter((run) => run.condition === NONE);
      const hazard = mine.filter((run) => run.condition === profile);
      lines.push({
        domain,
        agent,
        tasks: new Set(mine.map((run) => run.task)).size,
        runs: mine.filter(completed).length,
        errors: mine.filter((run) => !completed(run)).length,
        clean: rate(clean.filter(completed)),
        hazard: rate(hazard.filter(completed)),
        pass_k_clean: passK(clean),
        pass_k_hazard: passK(hazard),
      });
    }
  }
  return lines;
}

type Refusals = ReadonlyMap<string, readonly Pick<ExpectedRefusal, 'tool' | 'status' | 'code'>[]>;

/** The expected refusals of each task, by the task's wildtools id. */
function refusalsByTask(domains: readonly Tau2Import[]): Refusals {
  const byTask = new Map<string, ExpectedRefusal[]>();
  for (const { domain, expected_refusals } of domains)
    for (const refusal of expected_refusals) {
      const task = tau2TaskId(domain, refusal.id);
      byTask.set(task, [...(byTask.get(task) ?? []), refusal]);
    }
  return byTask;
}

/**
 * Per agent and kind, the scenarios that hit a call and those recovered from. A blocking hit after which the
 * tool gave the refusal tau2-bench itself gives (a lookup "not found" on purpose, a write meant
 * to fail) is recovered: that refusal is the answer the task expects.
 */
function kindLines(runs: readonly Tau2Run[], refusals: Refusals): KindLine[] {
  const counts = new Map<string, { hits: number; recovered: number }>();
  for (const run of runs) {
    const expected = refusals.get(run.task) ?? [];
    const journal = run.journal as { seq: number; tool: string; status: number; problem?: { code?: string }; hazards?: unknown[] }[];
    const refusalAfter = (tool: string, seq: number) =>
      journal.some(
        (entry) =>
          entry.seq > seq &&
          entry.tool === tool &&
          // The tool's own refusal, even on a call a hazard only slowed down (its status and code are the tool's, not a fault's).
          expected.some((refusal) => refusal.tool === tool && refusal.status === entry.status && refusal.code === (entry.problem?.code ?? '')),
      );
    for (const hazard of (run.score?.hazards ?? []) as { kind: string; tool: string; hits: number[]; blocking: boolean; recovered: boolean }[]) {
      if (hazard.hits.length === 0) continue;
      const key = `${run.agent}\u0000${hazard.kind}`;
      const count = counts.get(key) ?? { hits: 0, recovered: 0 };
      count.hits += 1;
      count.recovered += hazard.recovered || (hazard.blocking && refusalAfter(hazard.tool, hazard.hits[0]!)) ? 1 : 0;
      counts.set(key, count);
    }
  }
  return [...counts].map(([key, { hits, recovered }]) => {
    const [agent, kind] = key.split('\u0000') as [string, string];
    return { agent, kind, hits, recovered, recovery: percent(recovered, hits) };
  });
}

/** Why a completed run failed, by what decides its task (its reward basis; NL_ASSERTION and ENV_ASSERTION are never scored). */
function tau2WhyFailed(run: Tau2Run): string {
  if (run.blocked) return `blocked: ${run.blocked}`;
  const { score } = run;
  const basis = new Set(run.reward_basis);
  const why: string[] = [];
  if (basis.has('DB') && !score.state.ok)
    why.push(`DB: missing ${score.state.missing.length}, unexpected ${score.state.unexpected.length}, different ${JSON.stringify(score.state.different)}`);
  if (basis.has('COMMUNICATE') && score.answer.missing.length > 0) why.push(`COMMUNICATE: not stated ${JSON.stringify(score.answer.missing)}`);
  if (run.missing_calls && run.missing_calls.length > 0) why.push(`ACTION: not made ${run.missing_calls.join(', ')}`);
  if (score.traps.length > 0) why.push(`traps: ${JSON.stringify(score.traps)}`);
  return why.length > 0 ? why.join('; ') : 'failed';
}

export function tau2Report(
  meta: { revision: string; profile: string; kinds: readonly string[]; seed: number; rate: number; k: number; domains: Tau2Import[] },
  runs: readonly Tau2Run[],
): Tau2Report {
  const done = runs.filter(completed);
  const entries = done.flatMap((run) => run.journal as { status: number; hazards?: unknown[]; tool: string }[]);
  const unexplained = entries.filter((entry) => (entry.status >= 500 || entry.status === 0) && (entry.hazards ?? []).length === 0);
  const lost = runs.filter((run) => !completed(run));
  const modelAgent = runs.find((run) => run.agent !== 'oracle' && run.agent !== 'naive')?.agent;
  return {
    title: 'wildtools: tau2-bench tasks under hazards',
    revision: meta.revision,
    profile: meta.profile,
    kinds: [...meta.kinds],
    seed: meta.seed,
    rate: meta.rate,
    k: meta.k,
    domains: meta.domains,
    agents: agentLines(runs, meta.profile),
    kinds_recovery: kindLines(
      done.filter((run) => run.condition === meta.profile),
      refusalsByTask(meta.domains),
    ),
    injected_faults: entries.reduce((sum, entry) => sum + (entry.hazards ?? []).length, 0),
    infrastructure_errors: {
      failed_calls: unexplained.length,
      runs: lost.length,
      examples: [...unexplained.map((entry) => `${entry.tool} answered ${entry.status}`), ...lost.map((run) => `${run.task} ${run.agent}: ${run.error}`)].slice(
        0,
        5,
      ),
      lost: lost.map((run) => ({ task: run.task, condition: run.condition, agent: run.agent, repetition: run.repetition, error: run.error! })),
    },
    matrix: summarise(runs, modelAgent ?? 'naive'),
    failures: done
      .filter((run) => !run.success)
      .map((run) => ({ task: run.task, condition: run.condition, agent: run.agent, repetition: run.repetition, why: tau2WhyFailed(run) })),
  };
}

/** The report as markdown: the loading, the success table, the recovery per kind, the fault counts. */
export function tau2Markdown(report: Tau2Report): string {
  const row = (cells: readonly (string | number | null)[]) => `| ${cells.map((cell) => cell ?? '—').join(' | ')} |`;
  const counts = (record: Record<string, number>) =>
    Object.entries(record)
      .map(([name, n]) => `${name} ${n}`)
      .join(', ') || '—';
  const lines = [
    `# ${report.title}`,
    '',
    `tau2-bench revision \`${report.revision}\`; profile \`${report.profile}\` (${report.kinds.join(', ')}), hazard rate ${report.rate}, seed ` +
      `\`${report.seed}\`, k = ${report.k}.`,
    '',
    row(['domain', 'tasks loaded', 'skipped', 'reward basis (tasks)', 'not scored (tasks)', 'nl_assertions (not scored)', 'expected refusals']),
    row(['---', '---:', '---:', '---', '---', '---:', '---:']),
    ...report.domains.map((d) =>
      row([d.domain, d.loaded, d.skipped.length, counts(d.reward_basis), counts(d.unscored), d.nl_assertions, d.expected_refusals.length]),
    ),
    '',
    "Success follows each task's reward basis (tau2-bench's evaluator): DB is the end state, COMMUNICATE the facts stated, ACTION the gold " +
      'actions made; NL_ASSERTION (an LLM judge) and ENV_ASSERTION are not scored: a run is judged on the rest of its basis. ' +
      'Gold actions tau2-bench itself refuses (a lookup it answers "not found", a write meant to fail) are expected outcomes. Runs lost to an ' +
      'infrastructure failure are left out of every rate (— when none was completed).',
    '',
    row(['domain', 'agent', 'tasks', 'runs', 'lost', 'clean %', `${report.profile} %`, `pass^${report.k} clean %`, `pass^${report.k} ${report.profile} %`]),
    row(['---', '---', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
    ...report.agents.map((a) => row([a.domain, a.agent, a.tasks, a.runs, a.errors, a.clean, a.hazard, a.pass_k_clean, a.pass_k_hazard])),
    '',
    row(['agent', 'kind', 'hits', 'recovered', 'recovery %']),
    row(['---', '---', '---:', '---:', '---:']),
    ...report.kinds_recovery.map((k) => row([k.agent, k.kind, k.hits, k.recovered, k.recovery])),
    '',
    `Injected faults: ${report.injected_faults}. Infrastructure errors: ${report.infrastructure_errors.failed_calls} failed calls without a ` +
      `hazard, ${report.infrastructure_errors.runs} runs not completed (not counted).`,
  ];
  const lost = report.infrastructure_errors.lost.map((run) => `- ${run.task} ${run.condition} ${run.agent} #${run.repetition}: ${run.error}`);
  if (lost.length > 0)
    lines.push('', '## Runs not completed (infrastructure)', '', ...lost.slice(0, 50), ...(lost.length > 50 ? [`- … and ${lost.length - 50} more`] : []));
  const skipped = report.domains.flatMap((d) => d.skipped.map((s) => `- ${d.domain} task ${s.id}: ${s.why}`));
  if (skipped.length > 0) lines.push('', '## Skipped tasks', '', ...skipped);
  const refusals = report.domains.flatMap((d) =>
    d.expected_refusals.map((r) => `- ${d.domain} task ${r.id}, action ${r.action_id ?? r.action} ${r.tool}: ${r.status} ${r.code} (${r.detail})`),
  );
  if (refusals.length > 0) lines.push('', '## Gold actions tau2-bench refuses (expected)', '', ...refusals);
  return `${lines.join('\n')}\n`;
}

/** Writes `tau2.json` and `tau2.md` into `folder`. */
export function writeTau2Report(folder: string, report: Tau2Report): { json: string; markdown: string } {
  mkdirSync(folder, { recursive: true });
  const json = join(folder, 'tau2.json');
  const markdown = join(folder, 'tau2.md');
  writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(markdown, tau2Markdown(report));
  return { json, markdown };
}
