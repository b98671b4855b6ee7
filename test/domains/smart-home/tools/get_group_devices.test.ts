import t from 'tap';
import { startServer } from '../../../helpers/server.js';
import { diffOf, expectRefused, still } from '../control.js';
import { devicesOf, smartHomeFixture } from '../helpers.js';

t.test('get_group_devices', async (t) => {
  const server = await startServer(t);
  const db = smartHomeFixture();
  const homes = Object.values(db.homes);
  const home = homes.find((h) => h.groups.length > 0 && h.groups.some((g) => g.endpoints.length >= 2))!;
  const group = home.groups.find((g) => g.endpoints.length >= 2)!;
  const room = home.rooms.find((r) => devicesOf(home.home_id).filter((d) => d.room_id === r.room_id).length >= 2)!;
  const entry = (endpoint: string) => {
    const d = db.devices[endpoint]!;
    const roomName = db.homes[d.home_id]!.rooms.find((r) => r.room_id === d.room_id)!.name;
    return { endpoint, name: d.name, alternate_names: d.alternate_names, type: d.type, room_id: d.room_id, room: roomName, online: d.online };
  };

  t.test('a group: its devices in the order of the group', async (t) => {
    const session = await still(server);
    const reply = await server.call('smart-home', 'get_group_devices', { group_id: group.group_id }, session);
    t.equal(reply.status, 200);
    t.same(reply.body, { group_id: group.group_id, name: group.name, kind: 'group', home_id: home.home_id, devices: group.endpoints.map(entry) });
    t.same(await diffOf(server, session), [], 'changes nothing');
  });

  t.test('a room: the devices in it', async (t) => {
    const reply = await server.call('smart-home', 'get_group_devices', { group_id: room.room_id });
    t.equal(reply.status, 200);
    const inRoom = devicesOf(home.home_id).filter((d) => d.room_id === room.room_id);
    t.same(reply.body, { group_id: room.room_id, name: room.name, kind: 'room', home_id: home.home_id, devices: inRoom.map((d) => entry(d.endpoint)) });
  });

  t.test('rooms and groups of every home', async (t) => {
    const other = homes.find((h) => h.home_id !== home.home_id)!;
    const reply = await server.call('smart-home', 'get_group_devices', { group_id: other.rooms[0]!.room_id });
    t.equal(reply.body.home_id, other.home_id);
  });

  t.test('an unknown id: 404, with the nearest ids', async (t) => {
    await expectRefused(t, server, 'get_group_devices', [
      {
        args: { group_id: 'zzzz' },
        status: 404,
        code: 'group_not_found',
        detail: "Unknown group_id 'zzzz'. Use get_user_inventory to list a home's rooms and groups.",
      },
    ]);
    const near = await server.call('smart-home', 'get_group_devices', { group_id: group.group_id.slice(0, -1) });
    t.equal(near.status, 404);
    t.match(near.body.detail, `Did you mean '${group.group_id}'`);
    for (const args of [{}, { group_id: '' }, { group_ids: [group.group_id] }]) {
      t.equal((await server.call('smart-home', 'get_group_devices', args)).status, 400, JSON.stringify(args));
    }
  });
});
