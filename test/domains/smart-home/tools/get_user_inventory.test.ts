import t from 'tap';
import { formatLocal } from '../../../../lib/time.js';
import { startServer } from '../../../helpers/server.js';
import { diffOf, expectInvalid, NOW, still } from '../control.js';
import { devicesOf, findUser, homeOf, smartHomeFixture } from '../helpers.js';

t.test('get_user_inventory', async (t) => {
  const server = await startServer(t);
  const db = smartHomeFixture();
  const user = findUser((u) => u.role !== 'owner' && devicesOf(u.home_id).some((d) => !d.online), 'member of a home with an offline device');
  const home = homeOf(user.user_id);

  t.test('the person, their home and every device of it, room by room', async (t) => {
    const session = await still(server);
    const reply = await server.call('smart-home', 'get_user_inventory', { user_id: user.user_id }, session);
    t.equal(reply.status, 200);
    const { user: who, home: where, devices } = reply.body;
    t.same(who, { user_id: user.user_id, name: user.name, role: user.role, preferences: user.preferences });
    t.same(where, {
      home_id: home.home_id,
      name: home.name,
      timezone: home.timezone,
      local_time: formatLocal(home.timezone, Date.parse(NOW)),
      rooms: home.rooms,
      groups: home.groups,
    });
    const own = devicesOf(home.home_id);
    t.same(devices.map((d: { endpoint: string }) => d.endpoint).sort(), own.map((d) => d.endpoint).sort(), "exactly the home's devices");
    const rank = (roomId: string) => home.rooms.findIndex((r) => r.room_id === roomId);
    const ranks = devices.map((d: { room_id: string }) => rank(d.room_id));
    t.same(
      ranks,
      [...ranks].sort((a, b) => a - b),
      "listed room by room, in the home's order of rooms",
    );
    for (const device of own) {
      t.same(
        devices.find((d: { endpoint: string }) => d.endpoint === device.endpoint),
        {
          endpoint: device.endpoint,
          name: device.name,
          alternate_names: device.alternate_names,
          type: device.type,
          room_id: device.room_id,
          room: home.rooms.find((r) => r.room_id === device.room_id)!.name,
          online: device.online,
        },
        device.endpoint,
      );
    }
    t.ok(
      devices.some((d: { online: boolean }) => !d.online),
      'offline devices are listed, marked offline',
    );
    t.same(await diffOf(server, session), [], 'changes nothing');
  });

  t.test('look-alike devices of other homes are not listed', async (t) => {
    const reply = await server.call('smart-home', 'get_user_inventory', { user_id: user.user_id });
    const listed = new Set(reply.body.devices.map((d: { endpoint: string }) => d.endpoint));
    const others = Object.values(db.devices).filter((d) => d.home_id !== home.home_id);
    t.ok(
      others.some((d) => reply.body.devices.some((l: { name: string }) => l.name === d.name)),
      'another home has a device of the same name',
    );
    t.notOk(
      others.some((d) => listed.has(d.endpoint)),
      'none of them is listed',
    );
  });

  t.test('an unknown user', async (t) => {
    const session = await still(server);
    const reply = await server.call('smart-home', 'get_user_inventory', { user_id: 'nobody_0000' }, session);
    t.equal(reply.status, 404);
    t.match(reply.body, { code: 'user_not_found', detail: "Unknown user_id 'nobody_0000'." });
    t.same(await diffOf(server, session), []);
  });

  t.test('arguments', async (t) => {
    await expectInvalid(t, server, 'get_user_inventory', [{}, { user_id: '' }, { user_id: 42 }, { user_id: user.user_id, home_id: home.home_id }]);
  });
});
