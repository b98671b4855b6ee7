import { domains } from '../domains/index.js';
import { hazardsFromEnvironment } from '../hazards/setup.js';
import { buildApp } from '../server/app.js';
import { loadBases } from '../server/load.js';

/**
 * A wildtools server in this process on a free loopback port, with the embedded data and no hazard but
 * those sessions ask for. `instantLatency`: latency hazards answer at once (the schedule, not the wall
 * clock, decides what a client sees), for the scripted agents; a real model gets real delays.
 */
export async function loopbackServer(options: { instantLatency: boolean; maxSessions?: number }): Promise<{ base: string; close(): Promise<void> }> {
  const hazards = hazardsFromEnvironment({}, domains, options.instantLatency ? async () => {} : undefined);
  const app = await buildApp({
    domains,
    bases: await loadBases(domains),
    sessions: { ttlMs: 3_600_000, maxSessions: options.maxSessions ?? 1000, defaultSeed: hazards.seed ?? '0' },
    hazards: hazards.runtime,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { base: `http://127.0.0.1:${port}`, close: () => app.close() };
}
