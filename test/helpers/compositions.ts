import t from 'tap';
import { Agent } from 'undici';
import { runCompositions } from '../../agents/compositions.js';
import { plans } from '../../agents/plans/index.js';
import { listTasks, selectTasks } from '../../agents/validity.js';
import { startServer } from './server.js';

/**
 * Hazards two at a time, for one domain's tasks: every pair of declared scenarios that `all` can put on one
 * task's calls, each on the first task it reaches, with exactly those two on at rate 1 (seed 1). The oracle,
 * which recovers from every kind, must still succeed: no composition leaves a task without a signal to recover
 * by (an outage whose named fallback a second hazard corrupts, say).
 */
export function compositions(domain: string): void {
  // Every pair of scenarios a task meets, each played through: up to two minutes on a loaded 2-core machine.
  t.setTimeout(300_000);
  t.test(`the oracle succeeds under every pair of scenarios a ${domain} task meets`, async (t) => {
    // An empty hazard environment gives the runtime the test's clock: a gateway timeout answers without waiting.
    const server = await startServer(t, { sessions: { maxSessions: 64 }, hazardEnv: {}, sleep: async () => {} });
    const dispatcher = new Agent({ connections: 8 });
    t.teardown(() => dispatcher.close());
    const tasks = selectTasks(await listTasks(dispatcher, server.origin), [`${domain}/*`]);
    const runs = await runCompositions(dispatcher, server.origin, tasks, plans);
    const successes = runs.filter((run) => run.success).length;
    t.comment(`${domain}: ${runs.length} pairs tried, the oracle succeeds under ${successes}`);
    t.ok(runs.length >= 20, `${runs.length} pairs`);
    t.same(
      runs.filter((run) => !run.success).map((run) => `${run.task} ${run.pair.join(' + ')}: ${run.why}`),
      [],
      'the oracle succeeds under every pair',
    );
  });
}
