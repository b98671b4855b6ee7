import t from 'tap';
import { addDays, localDate } from '../../../../lib/time.js';
import { startServer } from '../../../helpers/server.js';
import { diffOf, expectInvalid, expectRefused, NOW, still } from '../control.js';
import { findDevice, findUser, smartHomeFixture } from '../helpers.js';

t.test('delete_alarm', async (t) => {
  const server = await startServer(t);
  const db = smartHomeFixture();
  const alarm = Object.values(db.alarms)[0]!;
  const unknown = (id: string) => `Unknown alarm_id '${id}'. Use get_alarms to list the alarms.`;

  t.test('removes the alarm and answers it as it was', async (t) => {
    const session = await still(server);
    const listed = (await server.call('smart-home', 'get_alarms', { endpoint: alarm.endpoint }, session)).body.alarms;
    const reply = await server.call('smart-home', 'delete_alarm', { alarm_id: alarm.alarm_id }, session);
    t.equal(reply.status, 200);
    t.same(
      reply.body,
      listed.find((a: { alarm_id: string }) => a.alarm_id === alarm.alarm_id),
      'as get_alarms showed it',
    );
    t.same(await diffOf(server, session), [{ table: 'alarms', id: alarm.alarm_id, op: 'delete', before: alarm, after: null }]);
    t.notOk(alarm.alarm_id in (await server.state(session))['smart-home'].alarms);
    const again = await server.call('smart-home', 'delete_alarm', { alarm_id: alarm.alarm_id }, session);
    t.match(again, { status: 404, body: { code: 'alarm_not_found', detail: unknown(alarm.alarm_id) } }, 'a second delete finds nothing');
  });

  t.test('create_alarm, get_alarms, delete_alarm', async (t) => {
    const speaker = findDevice((d) => d.online && d.capabilities.includes('alarm'), 'online speaker');
    const user = findUser((u) => u.home_id === speaker.home_id, 'member of its home');
    const day = addDays(localDate(db.homes[speaker.home_id]!.timezone, Date.parse(NOW)), 2);
    const session = await still(server);
    const created = await server.call(
      'smart-home',
      'create_alarm',
      { user_id: user.user_id, endpoint: speaker.endpoint, time: `${day}T06:05`, label: 'Flight' },
      session,
    );
    t.equal(created.status, 200);
    const id = created.body.alarm_id;
    const listed = await server.call('smart-home', 'get_alarms', { user_id: user.user_id, endpoint: speaker.endpoint }, session);
    t.same(
      listed.body.alarms.find((a: { alarm_id: string }) => a.alarm_id === id),
      created.body,
      'listed as created',
    );
    const deleted = await server.call('smart-home', 'delete_alarm', { alarm_id: id }, session);
    t.same(deleted.body, created.body);
    const after = await server.call('smart-home', 'get_alarms', { user_id: user.user_id, endpoint: speaker.endpoint }, session);
    t.same(after.body.total, listed.body.total - 1);
    t.notOk(after.body.alarms.some((a: { alarm_id: string }) => a.alarm_id === id));
    t.same(await diffOf(server, session), [], 'created then deleted: the database is as it was');
  });

  t.test('unknown alarms', async (t) => {
    await expectRefused(t, server, 'delete_alarm', [
      { args: { alarm_id: 'alarm_9999' }, status: 404, code: 'alarm_not_found', detail: unknown('alarm_9999') },
      { args: { alarm_id: alarm.alarm_id.toUpperCase() }, status: 404, code: 'alarm_not_found', detail: unknown(alarm.alarm_id.toUpperCase()) },
    ]);
    await expectInvalid(t, server, 'delete_alarm', [{}, { alarm_id: '' }, { alarm_ids: [alarm.alarm_id] }]);
  });
});
