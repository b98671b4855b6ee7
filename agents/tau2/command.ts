import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent } from 'undici';
import type { Tau2Flags } from './flags.js';
import { type Tau2Report, tau2Report, type Tau2Import, writeTau2Report } from './report.js';
import { checkoutRevision } from './revision.js';
import { goldOf, runTau2 } from './run.js';

/** A wildtools serving the given database and tasks.json files by domain (scripts/loopback-server.ts). */
export type Serve = (files: { fixtures: Record<string, string>; taskFiles: Record<string, string> }) => Promise<{
  base: string;
  imports: Tau2Import[];
  close(): Promise<void>;
}>;

/** A domain's files in a tau2-bench checkout. */
const tau2Files = (checkout: string, domain: string) => {
  const folder = join(checkout, 'data', 'tau2', 'domains', domain);
  return { db: join(folder, 'db.json'), tasks: join(folder, 'tasks.json') };
};

/** npm run tau2: serves the checkout's databases and tasks, runs them, writes the report; returns it with the files written. */
export async function tau2Command(flags: Tau2Flags, serve: Serve): Promise<{ report: Tau2Report; files: { json: string; markdown: string } }> {
  const fixtures: Record<string, string> = {};
  const taskFiles: Record<string, string> = {};
  for (const domain of flags.domains) {
    const { db, tasks } = tau2Files(flags.checkout, domain);
    for (const file of [db, tasks]) if (!existsSync(file)) throw new Error(`${file}: not found (is ${flags.checkout} a tau2-bench checkout?)`);
    fixtures[domain] = db;
    taskFiles[domain] = tasks;
  }
  const server = await serve({ fixtures, taskFiles });
  const dispatcher = new Agent({ connections: Math.max(16, 2 * flags.concurrency) });
  try {
    const refusals = (domain: string) => server.imports.find((entry) => entry.domain === domain)?.expected_refusals ?? [];
    const gold = new Map(
      flags.domains.flatMap((domain) => [...goldOf(domain, JSON.parse(readFileSync(taskFiles[domain]!, 'utf8')) as unknown[], refusals(domain))]),
    );
    const { runs } = await runTau2(dispatcher, server.base, gold, {
      domains: flags.domains,
      profile: flags.profile,
      kinds: flags.kinds,
      seed: flags.seed,
      rate: flags.rate,
      k: flags.k,
      patterns: flags.tasks,
      concurrency: flags.concurrency,
      maxSteps: flags.maxSteps,
      ...(flags.model ? { model: flags.model } : {}),
    });
    const domains = server.imports
      .filter((entry) => flags.domains.includes(entry.domain))
      .map(({ domain, loaded, skipped, nl_assertions, reward_basis, unscored, expected_refusals }) => ({
        domain,
        loaded,
        skipped,
        nl_assertions,
        reward_basis,
        unscored,
        expected_refusals,
      }));
    const report = tau2Report(
      { revision: checkoutRevision(flags.checkout), profile: flags.profile, kinds: flags.kinds, seed: flags.seed, rate: flags.rate, k: flags.k, domains },
      runs,
    );
    return { report, files: writeTau2Report(flags.out, report) };
  } finally {
    await dispatcher.close();
    await server.close();
  }
}
