import type { Tally } from './checker.js';

// What `npm run fuzz` prints at its end. It says only what it could read: the hazards it switched on itself, or
// those the server at --url reports; the server's memory only for a server it started.

export interface FuzzRun {
  tally: Tally;
  seconds: number;
  sessions: number;
  seed: number;
  /** How hazards were set: by this command, or as a server it did not start reports them (GET /hazards). */
  hazards: { own: boolean; rate: number } | { url: string; activeCells: number };
  /** The server's resident memory in MB, when this command started it (undefined for --url). */
  rss?: { before: number; after: number };
  journal: { bytes: number; limit: number | null };
  /** The reads that failed after the run. */
  broken: readonly string[];
}

const MB = 2 ** 20;

function hazardsLine({ hazards, tally }: FuzzRun): string {
  const struck = `${tally.struck} calls struck`;
  if ('url' in hazards)
    return hazards.activeCells === 0
      ? `none: the server at ${hazards.url} has no tool × kind cell above 0 (GET /hazards?active=1); ${struck}`
      : `as the server at ${hazards.url} sets them: ${hazards.activeCells} tool × kind cells above 0; ${struck}`;
  return hazards.own ? `every kind on at ${hazards.rate} (HAZARDS=all); ${struck}` : `off; ${struck}`;
}

export function fuzzSummary(run: FuzzRun): string {
  const { tally, journal } = run;
  const rules = new Map<string, number>();
  for (const v of tally.violations) rules.set(v.rule, (rules.get(v.rule) ?? 0) + 1);
  const memory = run.rss
    ? `${run.rss.before.toFixed(0)} MB before, ${run.rss.after.toFixed(0)} MB after`
    : `unknown: the server at ${'url' in run.hazards ? run.hazards.url : '--url'} is not a process this command started`;
  return `
fuzz: ${tally.requests} tool calls in ${run.seconds.toFixed(0)} s from ${run.sessions} sessions (seed ${run.seed})
  hazards         ${hazardsLine(run)}
  statuses        ${[...tally.byStatus]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}×${n}`)
    .join('  ')}
  5xx             ${tally.injected5xx} injected, ${tally.unexplained5xx} without a hazard
  data changed    ${tally.changedOn4xx} times on a refused call
  violations      ${tally.violations.length}${[...rules].map(([rule, n]) => `\n    ${n} × ${rule}`).join('')}
  afterwards      ${run.broken.length === 0 ? 'journal, state, diff, sessions and health all answer 200' : run.broken.join('; ')}
  server RSS      ${memory}
  journals        ${(journal.bytes / MB).toFixed(1)} MB of ${journal.limit === null ? 'unbounded' : `${(journal.limit / MB).toFixed(0)} MB`}`;
}
