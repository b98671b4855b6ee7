import t from 'tap';
import { startServer } from '../helpers/server.js';
import { expectEveryScenarioProbed, expectNoTells, proveScenario } from './harness.js';
import { TellCorpus } from './tells.js';
import { retailProbes } from './retail.js';
import { retailThirdPartyProbes } from './retail-third-parties.js';

// Each probe opens 15 sessions (truth, literal, recovering, clean and hinted runs, per seed): together far above the
// default limit of 100. An empty hazard environment gives the runtime the test's sleep: latency waits no wall time.
const probes = [...retailProbes, ...retailThirdPartyProbes];
const server = await startServer(t, { sessions: { maxSessions: 1000 }, hazardEnv: {} });

const corpus = new TellCorpus();
for (const probe of probes) {
  await t.test(`${probe.kind} on ${probe.tool}`, (t) => proveScenario(t, server, 'retail', probe, corpus));
}

t.test('every scenario has its probe', async (t) => expectEveryScenarioProbed(t, 'retail', probes));

t.test('no structural feature tells a hazarded answer', async (t) => expectNoTells(t, 'retail', corpus));
