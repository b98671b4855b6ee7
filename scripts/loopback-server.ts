import { domains } from '../domains/index.js';
import { hazardsFromEnvironment } from '../hazards/setup.js';
import { buildApp } from '../server/app.js';
import { loadBases } from '../server/core/load.js';
import type { Tau2Import } from '../server/core/tasks/tau2-file.js';

/**
 * A wildtools server in this process on a free loopback port, with the embedded data (or the files given) and no hazard but
 * those sessions ask for. `instantLatency`: latency hazards answer at once (the schedule, not the wall
 * clock, decides what a client sees), for the scripted agents; a real model gets real delays.
 */
export async function loopbackServer(options: {
  instantLatency: boolean;
  maxSessions?: number;
  /** Database files (FIXTURE_<DOMAIN>) and tau2-bench tasks.json files (TASKS_<DOMAIN>) by domain. */
  fixtures?: Record<string, string>;
  taskFiles?: Record<string, string>;
}): Promise<{ base: string; close(): Promise<void>; imports: Tau2Import[] }> {
  const hazards = hazardsFromEnvironment({}, domains, options.instantLatency ? async () => {} : undefined);
  const app = await buildApp({
    domains,
    bases: await loadBases(domains, options.fixtures),
    sessions: { ttlMs: 3_600_000, maxSessions: options.maxSessions ?? 1000, defaultSeed: hazards.seed ?? '0' },
    hazards: hazards.engine,
    ...(options.taskFiles ? { taskFiles: options.taskFiles } : {}),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { base: `http://127.0.0.1:${port}`, close: () => app.close(), imports: app.tasks.imports };
}
