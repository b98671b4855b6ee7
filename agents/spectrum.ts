import type { Dispatcher } from 'undici';
import type { Skill } from '../lib/skills.js';
import { type AgentProfile, lacking, type Plan } from './agent.js';
import { exchange } from './http.js';
import { MATRIX_SEEDS, type MatrixRun, type MatrixTask, runCells } from './matrix.js';

// The skill spectrum: for every hazard kind, the oracle without the skills the kind declares it needs, run on
// the tasks that target the kind, under the kind alone. Such an agent must fail (a kind that an agent without
// its skills passes measures something else); the same agents under the other kinds show what each skill is
// worth. The table: one row per kind, one column per agent (the skills it lacks).

/** What the server says of a kind: the skills that recover from it. */
interface KindNeeds {
  kind: string;
  needs: Skill[];
}

/** The kinds' needs, as GET /hazards states them. */
async function kindNeeds(dispatcher: Dispatcher, base: string): Promise<KindNeeds[]> {
  const reply = await exchange(dispatcher, base, 'GET', '/hazards');
  if (reply.status !== 200) throw new Error(`GET /hazards answered ${reply.status}`);
  return (reply.body as { kinds: KindNeeds[] }).kinds.map(({ kind, needs }) => ({ kind, needs }));
}

export interface SpectrumCell {
  kind: string;
  /** The agent: `without:<skills>`. */
  agent: string;
  /** The skills it lacks are the ones the kind needs. */
  lacksNeeded: boolean;
  runs: number;
  successes: number;
  /** Success in percent. */
  rate: number;
}

/** The spectrum of the tasks: per kind they target, every skill-lacking agent (all, or only the one lacking the kind's own needs). */
export async function runSpectrum(
  dispatcher: Dispatcher,
  base: string,
  tasks: readonly MatrixTask[],
  plans: Readonly<Record<string, Plan>>,
  options: { seeds?: readonly number[]; concurrency?: number; full?: boolean } = {},
): Promise<{ cells: SpectrumCell[]; runs: MatrixRun[] }> {
  const needs = new Map((await kindNeeds(dispatcher, base)).map(({ kind, needs }) => [kind, needs]));
  const agents = new Map<string, AgentProfile>();
  for (const skills of needs.values()) {
    const profile = lacking(skills);
    agents.set(profile.name, profile);
  }
  const kinds = [...new Set(tasks.flatMap((task) => task.targets.map((target) => target.kind)))].sort();
  const plan = kinds.flatMap((kind) =>
    [...agents.values()]
      .filter((agent) => options.full || agent.name === lacking(needs.get(kind) ?? []).name)
      .flatMap((agent) =>
        tasks
          .filter((task) => task.targets.some((target) => target.kind === kind))
          .flatMap((task) =>
            (options.seeds ?? MATRIX_SEEDS).map((seed) => ({ task, seed, condition: { name: kind, options: { kinds: [kind] }, agents: [agent] }, agent })),
          ),
      ),
  );
  const runs = await runCells(dispatcher, base, plan, plans, options.concurrency ?? 8, 'http', 's');
  const cells: SpectrumCell[] = [];
  for (const kind of kinds) {
    for (const agent of agents.values()) {
      const mine = runs.filter((run) => run.condition === kind && run.agent === agent.name);
      if (mine.length === 0) continue;
      const successes = mine.filter((run) => run.success).length;
      cells.push({
        kind,
        agent: agent.name,
        lacksNeeded: agent.name === lacking(needs.get(kind) ?? []).name,
        runs: mine.length,
        successes,
        rate: Math.round((1000 * successes) / mine.length) / 10,
      });
    }
  }
  return { cells, runs };
}

/**
 * The spectrum as a table: kinds down, agents across (numbered, with a legend of the skills each lacks), success in percent;
 * the cell of the agent lacking the kind's own skills starred.
 */
export function spectrumTable(cells: readonly SpectrumCell[]): string {
  const agents = [...new Set(cells.map((cell) => cell.agent))];
  const kinds = [...new Set(cells.map((cell) => cell.kind))];
  const lines = [`${'kind'.padEnd(22)}${agents.map((_agent, i) => `#${i + 1}`.padEnd(7)).join('')}`];
  for (const kind of kinds) {
    const row = agents.map((agent) => {
      const cell = cells.find((c) => c.kind === kind && c.agent === agent);
      return (cell ? `${cell.rate}${cell.lacksNeeded ? '*' : ''}` : '').padEnd(7);
    });
    lines.push(`${kind.padEnd(22)}${row.join('')}`.trimEnd());
  }
  lines.push('', ...agents.map((agent, i) => `#${i + 1}: ${agent.replace('without:', 'the oracle without ')}`));
  return lines.join('\n');
}
