import t from 'tap';
import { domains } from '../../../domains/index.js';
import { baseFromData } from '../../../server/core/data/base.js';
import { fixtureBases, startServer } from '../../helpers/server.js';

// The policy's fallback for telemetry (when it is out): the hub's view from get_device_details. It must hold on
// every record: over every online device of the base data and of a generated world (seed 1), hazard-free, the
// hub's view is what the device itself reports.

const domain = domains.find((d) => d.name === 'smart-home')!;

/** The base data (seed 0), or the world the domain generates for the seed. */
async function basesFor(seed: number) {
  const bases = await fixtureBases();
  if (seed !== 0) bases.set(domain.name, baseFromData(domain, domain.world!(seed), `smart-home world of seed ${seed}`));
  return bases;
}

for (const seed of [0, 1]) {
  t.test(`seed ${seed}: the hub's view agrees with telemetry on every online device`, async (t) => {
    const server = await startServer(t, { bases: await basesFor(seed) });
    const session = await server.newSession({ id: `hub-fallback-${seed}` });
    const devices = Object.values((await server.state(session))['smart-home']['devices'] as Record<string, { endpoint: string; online: boolean }>);
    const online = devices.filter((device) => device.online);
    const wrong: string[] = [];
    for (const { endpoint } of online) {
      const telemetry = await server.call('smart-home', 'get_device_telemetry', { endpoint }, session);
      const details = await server.call('smart-home', 'get_device_details', { endpoint }, session);
      t.equal(telemetry.status, 200, `${endpoint}: telemetry answers`);
      if (JSON.stringify(details.body.state) !== JSON.stringify(telemetry.body.state)) wrong.push(endpoint);
    }
    t.comment(`seed ${seed}: ${online.length} online devices (of ${devices.length}) checked, ${wrong.length} wrong`);
    t.ok(online.length > 50, 'a whole world of devices');
    t.same(wrong, [], "the hub's view is right on every device");
  });
}
