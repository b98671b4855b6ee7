import { domains } from '../../domains/index.js';
import { hazardsFromEnvironment } from '../../hazards/setup.js';
import { buildApp } from '../../server/app.js';
import type { HazardReport } from '../../client/index.js';
import type { Command, Values } from '../command.js';
import { clientFor, remoteOptions } from '../remote.js';
import { flaggedEnvironment, serverOptions } from '../server-flags.js';
import { renderTable } from '../table.js';

export const hazards: Command = {
  name: 'hazards',
  summary:
    'Show the effective hazard matrix: tool x kind -> probability, and the setting it came from. Offline, what the environment and these flags make; with ' +
    '--url, what a running server does.',
  options: [
    ...remoteOptions,
    { name: 'session', value: 'ID', description: "with --url: that session's matrix (its own hazards option applies)" },
    { name: 'all', description: 'every assigned cell, also those switched off' },
    ...serverOptions,
  ],
  async run(values, _positionals, io) {
    const report = values['url'] === undefined ? await offline(values, io.env) : await online(values, io.env);
    io.out(`${renderReport(report, values['all'] === true)}\n`);
    return 0;
  },
};

async function online(values: Values, env: NodeJS.ProcessEnv): Promise<HazardReport> {
  const client = clientFor(values, env);
  try {
    return await client.hazards.get({ session: values['session'] as string | undefined, active: false });
  } finally {
    await client.close();
  }
}

/** The report a server started with these settings would give, from an app without data. */
async function offline(values: Values, env: NodeJS.ProcessEnv): Promise<HazardReport> {
  const configured = hazardsFromEnvironment(flaggedEnvironment(values, env), domains);
  const app = await buildApp({
    domains,
    bases: new Map(),
    hazards: configured.engine,
    sessions: { ttlMs: 60_000, maxSessions: 1, defaultSeed: configured.seed ?? '0' },
  });
  try {
    return (await app.inject({ method: 'GET', url: '/hazards' })).json() as HazardReport;
  } finally {
    await app.close();
  }
}

function renderReport(report: HazardReport, all: boolean): string {
  const { settings } = report;
  const head =
    `session ${report.session}, seed ${report.seed}, hints ${settings.hints ? 'on' : 'off'}, at most ${settings.max_consecutive} retryable faults ` +
    `in a row, latency ${settings.latency_ms} ms`;
  const cells = all ? report.matrix : report.matrix.filter((cell) => cell.probability > 0);
  if (cells.length === 0) return `${head}\nNo hazard is switched on (${report.matrix.length} assigned cells: --all lists them).`;
  // The CONDITION column (which calls a scenario bites, when not every call) only when some cell has one.
  const conditions = cells.some((cell) => cell.condition !== undefined);
  const rows = cells.map((cell) => [
    cell.domain,
    cell.tool,
    cell.kind,
    cell.family,
    String(cell.probability),
    cell.source,
    ...(conditions ? [cell.condition ?? ''] : []),
  ]);
  const header = ['DOMAIN', 'TOOL', 'KIND', 'FAMILY', 'P', 'SOURCE', ...(conditions ? ['CONDITION'] : [])];
  return `${head}\n${renderTable([header, ...rows])}\n${cells.length} cells`;
}
