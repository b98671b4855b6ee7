import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Matrix, NONE, summarise, whyFailed } from '../matrix.js';
import type { Tau2Run } from './run.js';

// The report of a tau2-bench run: what was loaded and skipped, success clean and under the profile with
// pass^k per agent, recovery per hazard kind, and injected faults counted apart from infrastructure errors.

/** What the server made of one domain's tasks.json. */
export interface Tau2Import {
  domain: string;
  loaded: number;
  skipped: { id: string; why: string }[];
  /** Natural-language assertions of the loaded tasks: they need an LLM judge, so are not scored. */
  nl_assertions: number;
}

export interface AgentLine {
  domain: string;
  agent: string;
  tasks: number;
  clean: number;
  hazard: number;
  /** Share of tasks (percent) whose k runs all succeeded. */
  pass_k_clean: number;
  pass_k_hazard: number;
}

export interface KindLine {
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
  seed: string;
  rate: number;
  k: number;
  domains: Tau2Import[];
  agents: AgentLine[];
  kinds_recovery: KindLine[];
  /** Hazard events the journals record: faults wildtools injected on purpose. */
  injected_faults: number;
  /** Failures no hazard explains: calls answered 5xx without a hazard, runs that could not be completed (wildtools or the model endpoint unreachable). */
  infrastructure_errors: { failed_calls: number; runs: number; examples: string[] };
  matrix: Matrix;
  failures: { task: string; condition: string; agent: string; repetition: number; why: string }[];
}

const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((1000 * part) / whole) / 10);

/** pass^k over runs of k repetitions each: the share of tasks whose runs all succeeded. */
function passK(runs: readonly Tau2Run[]): number {
  const byTask = new Map<string, boolean>();
  for (const run of runs) byTask.set(run.task, (byTask.get(run.task) ?? true) && run.success);
  return percent([...byTask.values()].filter(Boolean).length, byTask.size);
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
        clean: percent(clean.filter((run) => run.success).length, clean.length),
        hazard: percent(hazard.filter((run) => run.success).length, hazard.length),
        pass_k_clean: passK(clean),
        pass_k_hazard: passK(hazard),
      });
    }
  }
  return lines;
}

function kindLines(runs: readonly Tau2Run[]): KindLine[] {
  const counts = new Map<string, { hits: number; recovered: number }>();
  for (const run of runs) {
    for (const hazard of (run.score?.hazards ?? []) as { kind: string; hits: number[]; recovered: boolean }[]) {
      if (hazard.hits.length === 0) continue;
      const key = `${run.agent}\u0000${hazard.kind}`;
      const count = counts.get(key) ?? { hits: 0, recovered: 0 };
      count.hits += 1;
      count.recovered += hazard.recovered ? 1 : 0;
      counts.set(key, count);
    }
  }
  return [...counts].map(([key, { hits, recovered }]) => {
    const [agent, kind] = key.split('\u0000') as [string, string];
    return { agent, kind, hits, recovered, recovery: percent(recovered, hits) };
  });
}

export function tau2Report(
  meta: { revision: string; profile: string; kinds: readonly string[]; seed: string; rate: number; k: number; domains: Tau2Import[] },
  runs: readonly Tau2Run[],
): Tau2Report {
  const entries = runs.flatMap((run) => run.journal as { status: number; hazards?: unknown[]; tool: string }[]);
  const unexplained = entries.filter((entry) => (entry.status >= 500 || entry.status === 0) && (entry.hazards ?? []).length === 0);
  const broken = runs.filter((run) => run.error !== undefined);
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
    kinds_recovery: kindLines(runs.filter((run) => run.condition === meta.profile)),
    injected_faults: entries.reduce((sum, entry) => sum + (entry.hazards ?? []).length, 0),
    infrastructure_errors: {
      failed_calls: unexplained.length,
      runs: broken.length,
      examples: [
        ...unexplained.map((entry) => `${entry.tool} answered ${entry.status}`),
        ...broken.map((run) => `${run.task} ${run.agent}: ${run.error}`),
      ].slice(0, 5),
    },
    matrix: summarise(runs, modelAgent ?? 'naive'),
    failures: runs
      .filter((run) => !run.success)
      .map((run) => ({ task: run.task, condition: run.condition, agent: run.agent, repetition: run.repetition, why: whyFailed(run) })),
  };
}

/** The report as markdown: the loading, the success table, the recovery per kind, the fault counts. */
export function tau2Markdown(report: Tau2Report): string {
  const row = (cells: readonly (string | number)[]) => `| ${cells.join(' | ')} |`;
  const lines = [
    `# ${report.title}`,
    '',
    `tau2-bench revision \`${report.revision}\`; profile \`${report.profile}\` (${report.kinds.join(', ')}), hazard rate ${report.rate}, seed \`${report.seed}\`, k = ${report.k}.`,
    '',
    row(['domain', 'tasks loaded', 'skipped', 'nl_assertions (not scored)']),
    row(['---', '---:', '---:', '---:']),
    ...report.domains.map((d) => row([d.domain, d.loaded, d.skipped.length, d.nl_assertions])),
    '',
    row(['domain', 'agent', 'tasks', 'clean %', `${report.profile} %`, `pass^${report.k} clean %`, `pass^${report.k} ${report.profile} %`]),
    row(['---', '---', '---:', '---:', '---:', '---:', '---:']),
    ...report.agents.map((a) => row([a.domain, a.agent, a.tasks, a.clean, a.hazard, a.pass_k_clean, a.pass_k_hazard])),
    '',
    row(['agent', 'kind', 'hits', 'recovered', 'recovery %']),
    row(['---', '---', '---:', '---:', '---:']),
    ...report.kinds_recovery.map((k) => row([k.agent, k.kind, k.hits, k.recovered, k.recovery])),
    '',
    `Injected faults: ${report.injected_faults}. Infrastructure errors: ${report.infrastructure_errors.failed_calls} failed calls without a hazard, ${report.infrastructure_errors.runs} runs not completed.`,
  ];
  const skipped = report.domains.flatMap((d) => d.skipped.map((s) => `- ${d.domain} task ${s.id}: ${s.why}`));
  if (skipped.length > 0) lines.push('', '## Skipped tasks', '', ...skipped);
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
