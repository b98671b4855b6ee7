import t from 'tap';
import type { Alarm } from '../../../../domains/smart-home/schema.js';
import { formatOffset, localParts } from '../../../../lib/time.js';
import { startServer } from '../../../helpers/server.js';
import { diffOf, expectInvalid, expectRefused, messages, NO_DEVICE, NOW, still } from '../control.js';
import { smartHomeFixture } from '../helpers.js';

const weekday = (date: string) => new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' });

t.test('get_alarms', async (t) => {
  const server = await startServer(t);
  const db = smartHomeFixture();
  const alarms = Object.values(db.alarms);
  const most = <K extends 'user_id' | 'endpoint'>(key: K) => {
    const counts = new Map<string, number>();
    for (const a of alarms) counts.set(a[key], (counts.get(a[key]) ?? 0) + 1);
    return [...counts].sort((a, b) => b[1] - a[1])[0]![0];
  };
  const view = (a: Alarm) => {
    const tz = db.homes[a.home_id]!.timezone;
    return { ...a, weekday: weekday(a.time.slice(0, 10)), rings_at: `${a.time}${formatOffset(localParts(tz, Date.parse(NOW)).offsetMin)}` };
  };
  const sorted = (list: Alarm[]) => [...list].sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : a.alarm_id < b.alarm_id ? -1 : 1)).map(view);
  const list = async (args: Record<string, unknown>, session?: string) => {
    const reply = await server.call('smart-home', 'get_alarms', args, session);
    t.equal(reply.status, 200, JSON.stringify(args));
    return reply.body;
  };

  t.test("a person's alarms, a device's, or the person's on the device, soonest first", async (t) => {
    const user = most('user_id');
    const mine = alarms.filter((a) => a.user_id === user);
    t.ok(mine.length >= 2, 'a person with several alarms');
    const session = await still(server);
    t.same(await list({ user_id: user }, session), { total: mine.length, alarms: sorted(mine) });
    const endpoint = most('endpoint');
    const there = alarms.filter((a) => a.endpoint === endpoint);
    t.same(await list({ endpoint }, session), { total: there.length, alarms: sorted(there) });
    const setter = there[0]!.user_id;
    const both = there.filter((a) => a.user_id === setter);
    t.same(await list({ endpoint, user_id: setter }, session), { total: both.length, alarms: sorted(both) });
    t.same(await diffOf(server, session), [], 'changes nothing');
  });

  t.test('none set: an empty list', async (t) => {
    const user = Object.values(db.users).find((u) => !alarms.some((a) => a.user_id === u.user_id))!;
    t.same(await list({ user_id: user.user_id }), { total: 0, alarms: [] });
  });

  t.test('unknown ids; neither given', async (t) => {
    await expectRefused(t, server, 'get_alarms', [
      { args: { user_id: 'nobody_0000' }, status: 404, code: 'user_not_found', detail: "Unknown user_id 'nobody_0000'." },
      { args: { endpoint: NO_DEVICE }, status: 404, code: 'endpoint_not_found', detail: messages.unknown(NO_DEVICE) },
    ]);
    await expectInvalid(t, server, 'get_alarms', [{}, { user_id: '' }, { alarm_id: alarms[0]!.alarm_id }]);
  });
});
