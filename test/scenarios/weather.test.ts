import t from 'tap';
import { startServer } from '../helpers/server.js';
import { weatherProbes } from './weather.js';
import { expectEveryScenarioProbed, expectNoTells, proveScenario } from './harness.js';
import { TellCorpus } from './tells.js';

// Each probe opens up to 18 sessions (truth, literal, recovering, clean and hinted runs, per seed): above the
// default limit of 100. An empty hazard environment gives the runtime the test clock: latency waits no wall time.
const server = await startServer(t, { sessions: { maxSessions: 1000 }, hazardEnv: {} });

const corpus = new TellCorpus();
for (const probe of weatherProbes) {
  await t.test(`${probe.kind} on ${probe.tool}`, (t) => proveScenario(t, server, 'weather', probe, corpus));
}

t.test('every scenario has its probe', async (t) => expectEveryScenarioProbed(t, 'weather', weatherProbes));

t.test('no structural feature tells a hazarded answer', async (t) => expectNoTells(t, 'weather', corpus));
