import t from 'tap';
import { startServer } from '../../../helpers/server.js';
import { diffOf, expectRefused, messages, NO_DEVICE, NOW, online, still } from '../control.js';
import { findDevice, inSync, smartHomeFixture } from '../helpers.js';

t.test('get_device_details', async (t) => {
  const server = await startServer(t);
  const db = smartHomeFixture();
  const synced = findDevice((d) => d.online && inSync(d), 'online device');
  const offline = findDevice((d) => !d.online, 'offline device');
  const dark = findDevice(online('light', 'off'), 'light off');
  const details = (device: typeof synced) => ({
    endpoint: device.endpoint,
    name: device.name,
    alternate_names: device.alternate_names,
    type: device.type,
    home_id: device.home_id,
    room_id: device.room_id,
    room: db.homes[device.home_id]!.rooms.find((r) => r.room_id === device.room_id)!.name,
    manufacturer: device.manufacturer,
    model: device.model,
    firmware: device.firmware,
    capabilities: device.capabilities,
    online: device.online,
    state: device.hub.state,
    last_synced_at: device.hub.synced_at,
    source: 'hub',
  });

  t.test("the hub's cached view, as of its last sync: in the base data, what the device reports", async (t) => {
    const session = await still(server);
    const reply = await server.call('smart-home', 'get_device_details', { endpoint: synced.endpoint }, session);
    t.equal(reply.status, 200);
    t.same(reply.body, details(synced));
    t.same(reply.body.state, synced.state, "the device's own state");
    t.same(await diffOf(server, session), [], 'changes nothing');
  });

  t.test('an offline device: its last known view', async (t) => {
    const reply = await server.call('smart-home', 'get_device_details', { endpoint: offline.endpoint });
    t.equal(reply.status, 200);
    t.same(reply.body, details(offline));
  });

  t.test('a command syncs the view', async (t) => {
    const session = await still(server);
    t.equal((await server.call('smart-home', 'power_on', { endpoints: [dark.endpoint] }, session)).status, 200);
    const reply = await server.call('smart-home', 'get_device_details', { endpoint: dark.endpoint }, session);
    t.same(reply.body.state, { ...dark.state, power: 'on' });
    t.equal(reply.body.last_synced_at, NOW);
  });

  t.test('unknown endpoints, with the nearest ones suggested', async (t) => {
    await expectRefused(t, server, 'get_device_details', [
      { args: { endpoint: NO_DEVICE }, status: 404, code: 'endpoint_not_found', detail: messages.unknown(NO_DEVICE) },
    ]);
    const near = await server.call('smart-home', 'get_device_details', { endpoint: `${synced.endpoint}9` });
    t.equal(near.status, 404);
    t.match(near.body.detail, `Did you mean '${synced.endpoint}'`);
    for (const args of [{}, { endpoint: '' }, { endpoints: [synced.endpoint] }]) {
      t.equal((await server.call('smart-home', 'get_device_details', args)).status, 400, JSON.stringify(args));
    }
  });
});
