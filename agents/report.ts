import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { escapeHtml } from '../lib/html.js';
import type { Matrix } from './matrix.js';

// The matrix as people read it: a table in the terminal, JSON for machines, and a page with a chart of
// success by kind for both agents.

export interface Report {
  title: string;
  /** What was run: the task count per domain, the agents, the seed policy. */
  tasks: Record<string, number>;
  matrix: Matrix;
  /** Same seed, concurrency 1 and 8: the journals compared, wall times aside. */
  determinism?: { identical: boolean; runs: number; differing: string[] };
  runs: { task: string; condition: string; agent: string; success: boolean; why?: string; calls: number; retries: number }[];
}

const pad = (text: string, width: number) => text.padEnd(width);

/** The matrix as a plain-text table: one line per domain and condition, oracle and naive success. */
export function matrixTable(matrix: Matrix): string {
  const rows = new Map<string, { oracle?: number; naive?: number; runs: number }>();
  for (const cell of matrix.cells) {
    const key = `${cell.domain}\u0000${cell.condition}`;
    const row = rows.get(key) ?? { runs: cell.runs };
    row[cell.agent] = cell.rate;
    rows.set(key, row);
  }
  const lines = [`${pad('domain', 12)}${pad('condition', 24)}${pad('tasks', 7)}${pad('oracle %', 10)}naive %`];
  const sorted = [...rows].sort(([a], [b]) => a.localeCompare(b));
  for (const [key, row] of sorted) {
    const [domain, condition] = key.split('\u0000') as [string, string];
    lines.push(`${pad(domain, 12)}${pad(condition, 24)}${pad(String(row.runs), 7)}${pad(String(row.oracle ?? '-'), 10)}${row.naive ?? '-'}`);
  }
  return lines.join('\n');
}

/** A bar chart (inline SVG) of success by kind, over all domains, for both agents. */
function chart(matrix: Matrix): string {
  const kinds = [...new Set(matrix.cells.filter((cell) => cell.domain === 'all').map((cell) => cell.condition))].sort((a, b) =>
    a === 'none' ? -1 : b === 'none' ? 1 : a.localeCompare(b),
  );
  const rateOf = (kind: string, agent: string) =>
    matrix.cells.find((cell) => cell.domain === 'all' && cell.condition === kind && cell.agent === agent)?.rate ?? 0;
  const rowHeight = 26;
  const labelWidth = 170;
  const barWidth = 300;
  const height = kinds.length * rowHeight + 40;
  const bars = kinds
    .map((kind, i) => {
      const y = 30 + i * rowHeight;
      const oracle = rateOf(kind, 'oracle');
      const naive = rateOf(kind, 'naive');
      return [
        `<text x="${labelWidth - 8}" y="${y + 14}" text-anchor="end">${escapeHtml(kind)}</text>`,
        `<rect class="oracle" x="${labelWidth}" y="${y}" width="${(barWidth * oracle) / 100}" height="10"><title>oracle ${oracle}%</title></rect>`,
        `<rect class="naive" x="${labelWidth}" y="${y + 11}" width="${(barWidth * naive) / 100}" height="10"><title>naive ${naive}%</title></rect>`,
        `<text x="${labelWidth + barWidth + 8}" y="${y + 14}">${oracle}% / ${naive}%</text>`,
      ].join('');
    })
    .join('\n');
  return `<svg role="img" aria-label="Success by hazard kind, oracle and naive" width="${labelWidth + barWidth + 120}" height="${height}" xmlns="http://www.w3.org/2000/svg">
<text x="${labelWidth}" y="16"><tspan class="oracle-key">■ oracle</tspan> <tspan class="naive-key">■ naive</tspan> success, all domains</text>
${bars}
</svg>`;
}

export function reportHtml(report: Report): string {
  const drops = report.matrix.drops
    .map(
      (drop) =>
        `<tr class="${drop.drop >= 50 ? '' : 'bad'}"><td>${escapeHtml(drop.domain)}</td><td>${escapeHtml(drop.kind)}</td><td>${drop.hazardFree}</td><td>${drop.underKind}</td><td>${drop.drop}</td></tr>`,
    )
    .join('\n');
  const failures = report.runs.filter((run) => !run.success);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(report.title)}</title>
<style>
body{font:14px system-ui,sans-serif;margin:2rem;color:#222;max-width:70rem}
table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #ccc;padding:.2rem .5rem;text-align:left}
tr.bad td{background:#fdd}.oracle,.oracle-key{fill:#2a6;color:#2a6}.naive,.naive-key{fill:#d63;color:#d63}svg text{font-size:12px}
</style></head><body>
<h1>${escapeHtml(report.title)}</h1>
<p>Tasks: ${Object.entries(report.tasks)
    .map(([domain, n]) => `${escapeHtml(domain)} ${n}`)
    .join(', ')}. Oracle failures: <strong id="oracle-failures">${report.matrix.oracleFailures.length}</strong>.
${report.determinism ? `Journals at concurrency 1 and 8: <strong id="determinism">${report.determinism.identical ? 'identical' : 'different'}</strong> (${report.determinism.runs} runs).` : ''}</p>
<h2>Success by kind</h2>
${chart(report.matrix)}
<h2>The naive agent's drop per domain and kind</h2>
<table id="drops"><thead><tr><th>domain</th><th>kind</th><th>hazard-free %</th><th>under the kind %</th><th>drop (points)</th></tr></thead><tbody>
${drops}
</tbody></table>
<h2>Failed runs (${failures.length})</h2>
<table><thead><tr><th>task</th><th>condition</th><th>agent</th><th>why</th></tr></thead><tbody>
${failures.map((run) => `<tr><td>${escapeHtml(run.task)}</td><td>${escapeHtml(run.condition)}</td><td>${escapeHtml(run.agent)}</td><td>${escapeHtml(run.why ?? '')}</td></tr>`).join('\n')}
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
