import t from 'tap';
import { startServer } from '../helpers/server.js';
import { expectEveryScenarioProbed, proveScenario } from './harness.js';
import { retailProbes } from './retail.js';
import { retailThirdPartyProbes } from './retail-third-parties.js';

// Each probe opens 15 sessions (truth, literal, recovering, clean and hinted runs, per seed): together far above the
// default limit of 100. An empty hazard environment gives the runtime the test's sleep: latency waits no wall time.
const probes = [...retailProbes, ...retailThirdPartyProbes];
const server = await startServer(t, { sessions: { maxSessions: 1000 }, hazardEnv: {} });

for (const probe of probes) {
  await t.test(`${probe.kind} on ${probe.tool}`, (t) => proveScenario(t, server, 'retail', probe));
}

t.test('every scenario has its probe', async (t) => expectEveryScenarioProbed(t, 'retail', probes));
