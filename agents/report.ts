import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { escapeHtml } from '../lib/html.js';
import type { Matrix } from './matrix.js';

// The matrix as people read it: a table in the terminal, JSON for machines, and a page with a chart of
// success by kind for every agent present (oracle and naive in the validity matrix, the model in an eval).

export interface Report {
  title: string;
  /** What was run: the task count per domain, the agents, the seed policy. */
  tasks: Record<string, number>;
  /** An eval's model: what was asked and how. */
  model?: { name: string; base_url: string; temperature?: number; max_steps: number };
  /** The agent whose drop per kind the matrix holds (default naive). */
  dropsOf?: string;
  matrix: Matrix;
  /** Same seed, concurrency 1 and 8: the journals compared, wall times aside. */
  /** The journals of the second pass (at `concurrency`, over `via`) against the first (one at a time, over HTTP). */
  determinism?: { identical: boolean; runs: number; differing: string[]; concurrency?: number; via?: string };
  /** An eval's successful runs, over all and per task. */
  passes?: { runs: number; passed: number; tasks: { task: string; runs: number; passed: number }[] };
  runs: {
    task: string;
    seed?: number;
    condition: string;
    agent: string;
    success: boolean;
    why?: string;
    calls: number;
    retries: number;
    steps?: number;
    error?: string;
  }[];
}

const pad = (text: string, width: number) => text.padEnd(width);

/** The agents of the matrix, in the order of its runs. */
const agentsOf = (matrix: Matrix) => [...new Set(matrix.cells.map((cell) => cell.agent))];

/** The matrix as a plain-text table: one line per domain and condition, the success of each agent. */
export function matrixTable(matrix: Matrix): string {
  const agents = agentsOf(matrix);
  const rows = new Map<string, { rates: Record<string, number>; runs: number }>();
  for (const cell of matrix.cells) {
    const key = `${cell.domain}\u0000${cell.condition}`;
    const row = rows.get(key) ?? { rates: {}, runs: cell.runs };
    row.rates[cell.agent] = cell.rate;
    rows.set(key, row);
  }
  const columns = (values: readonly string[]) =>
    values.map((value, i) => (i === values.length - 1 ? value : pad(value, Math.max(10, agents[i]!.length + 4)))).join('');
  const lines = [`${pad('domain', 12)}${pad('condition', 24)}${pad('tasks', 7)}${columns(agents.map((agent) => `${agent} %`))}`];
  const sorted = [...rows].sort(([a], [b]) => a.localeCompare(b));
  for (const [key, row] of sorted) {
    const [domain, condition] = key.split('\u0000') as [string, string];
    lines.push(`${pad(domain, 12)}${pad(condition, 24)}${pad(String(row.runs), 7)}${columns(agents.map((agent) => String(row.rates[agent] ?? '-')))}`);
  }
  return lines.join('\n');
}

/** Bar colours by agent order (the validity matrix: oracle green, naive orange). */
const COLOURS = ['#2a6', '#d63', '#36c', '#a3a', '#888'];
const colourOf = (i: number) => COLOURS[i % COLOURS.length]!;

/** A bar chart (inline SVG) of success by kind, over all domains, one bar per agent. */
function chart(matrix: Matrix): string {
  const agents = agentsOf(matrix);
  const kinds = [...new Set(matrix.cells.filter((cell) => cell.domain === 'all').map((cell) => cell.condition))].sort((a, b) =>
    a === 'none' ? -1 : b === 'none' ? 1 : a.localeCompare(b),
  );
  const rateOf = (kind: string, agent: string) =>
    matrix.cells.find((cell) => cell.domain === 'all' && cell.condition === kind && cell.agent === agent)?.rate ?? 0;
  const rowHeight = Math.max(26, agents.length * 11 + 4);
  const labelWidth = 170;
  const barWidth = 300;
  const height = kinds.length * rowHeight + 40;
  const bars = kinds
    .map((kind, i) => {
      const y = 30 + i * rowHeight;
      const rates = agents.map((agent) => rateOf(kind, agent));
      return [
        `<text x="${labelWidth - 8}" y="${y + 14}" text-anchor="end">${escapeHtml(kind)}</text>`,
        ...agents.map(
          (agent, j) =>
            `<rect fill="${colourOf(j)}" x="${labelWidth}" y="${y + 11 * j}" width="${(barWidth * rates[j]!) / 100}" ` +
            `height="10"><title>${escapeHtml(agent)} ${rates[j]}%</title></rect>`,
        ),
        `<text x="${labelWidth + barWidth + 8}" y="${y + 14}">${rates.map((rate) => `${rate}%`).join(' / ')}</text>`,
      ].join('');
    })
    .join('\n');
  const key = agents.map((agent, j) => `<tspan fill="${colourOf(j)}">■ ${escapeHtml(agent)}</tspan>`).join(' ');
  return (
    `<svg role="img" aria-label="Success by hazard kind, ${escapeHtml(agents.join(' and '))}" width="${labelWidth + barWidth + 120}" height="${height}" ` +
    `xmlns="http://www.w3.org/2000/svg">
<text x="${labelWidth}" y="16">${key} success, all domains</text>
${bars}
</svg>`
  );
}

export function reportHtml(report: Report): string {
  const dropsOf = report.dropsOf ?? 'naive';
  // The validity matrix asks the naive agent to lose 50 points under every kind; a model's drop is a measure, not a check.
  const bad = (drop: number) => dropsOf === 'naive' && drop < 50;
  const drops = report.matrix.drops
    .map(
      (drop) =>
        `<tr class="${bad(drop.drop) ? 'bad' : ''}"><td>${escapeHtml(drop.domain)}</td><td>${escapeHtml(drop.kind)}</td><td>${drop.hazardFree}</td><td>` +
        `${drop.underKind}</td><td>${drop.drop}</td></tr>`,
    )
    .join('\n');
  const failures = report.runs.filter((run) => !run.success);
  const model = report.model;
  const passes = report.passes;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(report.title)}</title>
<style>
body{font:14px system-ui,sans-serif;margin:2rem;color:#222;max-width:70rem}
table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #ccc;padding:.2rem .5rem;text-align:left}
tr.bad td{background:#fdd}svg text{font-size:12px}
</style></head><body>
<h1>${escapeHtml(report.title)}</h1>
${
  model
    ? `<p id="model">Model <strong>${escapeHtml(model.name)}</strong> at ${escapeHtml(model.base_url)}${
        model.temperature === undefined ? '' : `, temperature ${model.temperature}`
      }, at most ${model.max_steps} model requests per turn.</p>\n`
    : ''
}<p>Tasks: ${Object.entries(report.tasks)
    .map(([domain, n]) => `${escapeHtml(domain)} ${n}`)
    .join(
      ', ',
    )}.${agentsOf(report.matrix).includes('oracle') ? ` Oracle failures: <strong id="oracle-failures">${report.matrix.oracleFailures.length}</strong>.` : ''}
${
  report.determinism
    ? `Journals at concurrency 1 and ${report.determinism.concurrency ?? 8}${report.determinism.via === 'openenv' ? ' (over OpenEnv)' : ''}` +
      `: <strong id="determinism">${report.determinism.identical ? 'identical' : 'different'}</strong> (${report.determinism.runs} runs).`
    : ''
}</p>
${passes ? `<p>Passed: <strong id="passed">${passes.passed} of ${passes.runs}</strong> runs.</p>\n` : ''}<h2>Success by kind</h2>
${chart(report.matrix)}
<h2>The ${escapeHtml(dropsOf === 'naive' ? 'naive agent' : dropsOf)}'s drop per domain and kind</h2>
<table id="drops"><thead><tr><th>domain</th><th>kind</th><th>hazard-free %</th><th>under the kind %</th><th>drop (points)</th></tr></thead><tbody>
${drops}
</tbody></table>
${
  passes
    ? `<h2>Passes per task</h2>
<table id="passes"><thead><tr><th>task</th><th>passed</th><th>runs</th></tr></thead><tbody>
${passes.tasks.map((task) => `<tr><td>${escapeHtml(task.task)}</td><td>${task.passed}</td><td>${task.runs}</td></tr>`).join('\n')}
</tbody></table>
`
    : ''
}<h2>Failed runs (${failures.length})</h2>
<table id="failures"><thead><tr><th>task</th><th>condition</th><th>agent</th><th>why</th></tr></thead><tbody>
${failures
  .map(
    (run) =>
      `<tr><td>${escapeHtml(run.task)}</td><td>${escapeHtml(run.condition)}</td><td>${escapeHtml(run.agent)}</td><td>` +
      `${escapeHtml(run.why ?? '')}</td></tr>`,
  )
  .join('\n')}
</tbody></table>
</body></html>
`;
}

/** Writes `<name>.json` and `<name>.html` into `folder`. */
export function writeReport(folder: string, name: string, report: Report): { json: string; html: string } {
  mkdirSync(folder, { recursive: true });
  const json = join(folder, `${name}.json`);
  const html = join(folder, `${name}.html`);
  writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(html, reportHtml(report));
  return { json, html };
}
