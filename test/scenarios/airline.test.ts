import t from 'tap';
import { startServer } from '../helpers/server.js';
import { airlineProbes } from './airline.js';
import { airlineThirdPartyProbes } from './airline-third-parties.js';
import { expectEveryScenarioProbed, expectNoTells, proveScenario } from './harness.js';
import { TellCorpus } from './tells.js';

// Each probe opens 12 sessions (truth, literal, recovering and clean runs, per seed): above the default limit of 100.
// No hazard variables (sessions switch their scenario on), and the latency hazard answers its 504 without waiting.
const probes = [...airlineProbes, ...airlineThirdPartyProbes];
const server = await startServer(t, { sessions: { maxSessions: 1000 }, hazardEnv: {}, sleep: async () => {} });

const corpus = new TellCorpus();
for (const probe of probes) {
  await t.test(`${probe.kind} on ${probe.tool}`, (t) => proveScenario(t, server, 'airline', probe, corpus));
}

t.test('every scenario has its probe', async (t) => expectEveryScenarioProbed(t, 'airline', probes));

t.test('no structural feature tells a hazarded answer', async (t) => expectNoTells(t, 'airline', corpus));
