import t from 'tap';
import { primaryMember } from '../../../../domains/smart-home/hazards/state-members.js';
import { DESIRED_VERSION } from '../../../../domains/smart-home/tools/get_device_telemetry.js';
import { startServer } from '../../../helpers/server.js';
import { diffOf, expectRefused, messages, NO_DEVICE, NOW, online, still } from '../control.js';
import { findDevice } from '../helpers.js';

t.test('get_device_telemetry', async (t) => {
  const server = await startServer(t);
  const device = findDevice((d) => d.online && d.state.power === 'on', 'online device that is on');
  const offline = findDevice((d) => !d.online, 'offline device');
  const dimmer = findDevice(online('dimmer', 'on'), 'dimmer on');

  t.test("the device's own live report, now", async (t) => {
    const session = await still(server);
    const reply = await server.call('smart-home', 'get_device_telemetry', { endpoint: device.endpoint }, session);
    t.equal(reply.status, 200);
    const member = primaryMember(device.type);
    const desired = { state: { [member]: device.state[member] }, requested_by: 'app:home', version: DESIRED_VERSION };
    t.same(reply.body, { endpoint: device.endpoint, name: device.name, online: true, desired, state: device.state, reported_at: NOW, source: 'device' });
    t.same(Object.keys(reply.body), ['endpoint', 'name', 'online', 'desired', 'state', 'reported_at', 'source'], 'desired comes before state');
    t.same(await diffOf(server, session), [], 'changes nothing');
  });

  t.test('after a command, the new state', async (t) => {
    const session = await still(server);
    t.equal((await server.call('smart-home', 'brightness_adjust', { endpoints: [dimmer.endpoint], brightness: 7 }, session)).status, 200);
    const reply = await server.call('smart-home', 'get_device_telemetry', { endpoint: dimmer.endpoint }, session);
    t.same(reply.body.state, { ...dimmer.state, brightness: 7 });
  });

  t.test('an offline device cannot report: 409 with when it was last seen; an unknown endpoint 404', async (t) => {
    const detail =
      `${offline.name} (${offline.endpoint}) is offline (last seen ${offline.last_seen_at}): it cannot report its state. ` +
      "get_device_details gives the hub's last known view, as of its last_synced_at.";
    await expectRefused(t, server, 'get_device_telemetry', [
      { args: { endpoint: offline.endpoint }, status: 409, code: 'device_offline', detail },
      { args: { endpoint: NO_DEVICE }, status: 404, code: 'endpoint_not_found', detail: messages.unknown(NO_DEVICE) },
    ]);
    const reply = await server.call('smart-home', 'get_device_telemetry', { endpoint: offline.endpoint });
    t.equal(reply.body.last_seen_at, offline.last_seen_at);
    for (const args of [{}, { endpoint: 7 }, { endpoint: offline.endpoint, fresh: true }]) {
      t.equal((await server.call('smart-home', 'get_device_telemetry', args)).status, 400, JSON.stringify(args));
    }
  });
});
