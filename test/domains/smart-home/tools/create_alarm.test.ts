import t from 'tap';
import type { Device } from '../../../../domains/smart-home/schema.js';
import { addDays, formatLocal, formatOffset, localDate, localParts } from '../../../../lib/time.js';
import { startServer } from '../../../helpers/server.js';
import { diffOf, expectInvalid, expectRefused, messages, NO_DEVICE, NOW, still } from '../control.js';
import { findDevice, findUser, smartHomeFixture } from '../helpers.js';

const weekday = (date: string) => new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' });
const pad = (n: number) => String(n).padStart(2, '0');

t.test('create_alarm', async (t) => {
  const server = await startServer(t);
  const db = smartHomeFixture();
  const alarms = Object.values(db.alarms);
  const count = (d: Device) => alarms.filter((a) => a.endpoint === d.endpoint).length;
  const canRing = (d: Device) => d.online && d.capabilities.includes('alarm');
  const speaker = findDevice((d) => canRing(d) && count(d) <= 3, 'online speaker with few alarms');
  const user = findUser((u) => u.home_id === speaker.home_id, 'member of the speaker home');
  const home = db.homes[speaker.home_id]!;
  const tz = home.timezone;
  const now = Date.parse(NOW);
  const today = localDate(tz, now);
  const offset = formatOffset(localParts(tz, now).offsetMin);
  const hour = localParts(tz, now).hour;
  const highest = Math.max(...alarms.map((a) => Number(a.alarm_id.replace('alarm_', ''))));
  const idAfter = (n: number) => `alarm_${String(highest + n).padStart(4, '0')}`;
  const nextDay = (test: (day: string) => boolean) => {
    for (let i = 1; ; i++) if (test(weekday(addDays(today, i)))) return addDays(today, i);
  };
  const saturday = nextDay((d) => d === 'Saturday');
  const view = (date: string, clock: string, extra: Record<string, unknown> = {}, n = 1) => ({
    alarm_id: idAfter(n),
    endpoint: speaker.endpoint,
    user_id: user.user_id,
    home_id: home.home_id,
    time: `${date}T${clock}`,
    recurrence: 'once',
    label: 'Alarm',
    enabled: true,
    created_at: NOW,
    ...extra,
    weekday: weekday(date),
    rings_at: `${date}T${clock}${offset}`,
  });
  const create = async (args: Record<string, unknown>, session?: string) =>
    server.call('smart-home', 'create_alarm', { user_id: user.user_id, endpoint: speaker.endpoint, ...args }, session ?? (await still(server)));

  t.test('a day and time at the home: stored with the next id, answered with its weekday and offset', async (t) => {
    const tomorrow = addDays(today, 1);
    const session = await still(server);
    const reply = await create({ time: `${tomorrow}T07:00`, label: 'Gym', recurrence: 'daily' }, session);
    t.equal(reply.status, 200);
    const expected = view(tomorrow, '07:00:00', { label: 'Gym', recurrence: 'daily' });
    t.same(reply.body, expected);
    const { weekday: _w, rings_at: _r, ...record } = expected;
    const diff = await diffOf(server, session);
    t.same(diff, [{ table: 'alarms', id: idAfter(1), op: 'insert', before: null, after: record }], 'one alarm inserted');
    t.same((await server.state(session))['smart-home'].alarms[idAfter(1)], record);
    const second = await create({ time: `${tomorrow}T07:00:30` }, session);
    t.same(second.body, view(tomorrow, '07:00:30', {}, 2), 'the same time again makes a second alarm, with the next id');
  });

  t.test("'HH:MM': the next such time at the home, on a day of the recurrence", async (t) => {
    t.same((await create({ time: '00:00' })).body, view(addDays(today, 1), '00:00:00'), 'past today: tomorrow');
    if (hour < 23) t.same((await create({ time: `${pad(hour + 1)}:15` })).body, view(today, `${pad(hour + 1)}:15:00`), 'later today: today');
    t.same(
      (await create({ time: '06:30', recurrence: 'weekends' })).body,
      view(
        nextDay((d) => d === 'Saturday' || d === 'Sunday'),
        '06:30:00',
        { recurrence: 'weekends' },
      ),
    );
    t.same(
      (await create({ time: '06:30', recurrence: 'weekdays' })).body,
      view(
        nextDay((d) => d !== 'Saturday' && d !== 'Sunday'),
        '06:30:00',
        { recurrence: 'weekdays' },
      ),
    );
  });

  t.test('at most 10 alarms per device', async (t) => {
    const session = await still(server);
    for (let i = count(speaker); i < 10; i++) t.equal((await create({ time: `${pad(i)}:00` }, session)).status, 200);
    const before = await diffOf(server, session);
    const reply = await create({ time: '11:00' }, session);
    t.equal(reply.status, 409);
    t.match(reply.body, {
      code: 'too_many_alarms',
      detail: `${speaker.name} (${speaker.endpoint}) already has 10 alarms, the most it holds: delete one with delete_alarm first.`,
    });
    t.same(await diffOf(server, session), before, 'the refused call changed nothing');
  });

  t.test('a retry with the same idempotency key sets it once', async (t) => {
    const session = await still(server);
    const args = { time: `${saturday}T09:00`, idempotency_key: 'alarm-retry-1' };
    const first = await create(args, session);
    const again = await create(args, session);
    t.same(again.body, first.body);
    t.equal((await diffOf(server, session)).length, 1);
  });

  t.test('rules: nothing changes', async (t) => {
    const stranger = findDevice((d) => canRing(d) && d.home_id !== home.home_id, 'speaker of another home');
    const tv = findDevice((d) => d.home_id === home.home_id && !d.capabilities.includes('alarm'), 'device of the home without alarms');
    const offline = findDevice((d) => !d.online && d.capabilities.includes('alarm'), 'offline speaker');
    const member = findUser((u) => u.home_id === offline.home_id, 'member of the offline speaker home');
    const local = formatLocal(tz, now).slice(0, 19);
    const base = { user_id: user.user_id, endpoint: speaker.endpoint };
    await expectRefused(t, server, 'create_alarm', [
      {
        args: { ...base, time: `${today}T00:00` },
        status: 422,
        code: 'time_in_past',
        detail: `${today}T00:00:00 is in the past at the home (now ${local}, ${tz}).`,
      },
      {
        args: { ...base, time: `${addDays(today, -3)}T23:59:59` },
        status: 422,
        code: 'time_in_past',
        detail: `${addDays(today, -3)}T23:59:59 is in the past at the home (now ${local}, ${tz}).`,
      },
      {
        args: { ...base, time: `${saturday}T07:00`, recurrence: 'weekdays' },
        status: 422,
        code: 'recurrence_mismatch',
        detail: `${saturday} is a Saturday: a weekdays alarm does not ring that day.`,
      },
      {
        args: { ...base, endpoint: stranger.endpoint, time: '07:00' },
        status: 403,
        code: 'not_authorized',
        detail: `${stranger.name} (${stranger.endpoint}) is not in the home of user '${user.user_id}': alarms are set on the devices of their own home.`,
      },
      { args: { ...base, endpoint: tv.endpoint, time: '07:00' }, status: 422, code: 'capability_unsupported', detail: messages.unsupported(tv, 'alarms') },
      { args: { user_id: member.user_id, endpoint: offline.endpoint, time: '07:00' }, status: 409, code: 'device_offline', detail: messages.offline(offline) },
      { args: { ...base, user_id: 'nobody_0000', time: '07:00' }, status: 404, code: 'user_not_found', detail: "Unknown user_id 'nobody_0000'." },
      { args: { ...base, endpoint: NO_DEVICE, time: '07:00' }, status: 404, code: 'endpoint_not_found', detail: messages.unknown(NO_DEVICE) },
    ]);
  });

  t.test('arguments', async (t) => {
    const base = { user_id: user.user_id, endpoint: speaker.endpoint };
    await expectInvalid(t, server, 'create_alarm', [
      base,
      { ...base, time: '7am' },
      { ...base, time: '7:00' },
      { ...base, time: '24:00' },
      { ...base, time: '2024-05-16 07:00' },
      { ...base, time: '2024-02-30T07:00' },
      { ...base, time: '2024-05-16T07:00:00Z' },
      { ...base, time: '2024-05-16T07:00:00-05:00' },
      { ...base, time: '07:00', recurrence: 'monthly' },
      { ...base, time: '07:00', label: '' },
      { ...base, time: '07:00', endpoints: [speaker.endpoint] },
      { endpoint: speaker.endpoint, time: '07:00' },
    ]);
  });
});
