import t from 'tap';
import { drawOf, energyKwh, HISTORY_DAYS, logged } from '../../../../domains/smart-home/energy.js';
import type { Device } from '../../../../domains/smart-home/schema.js';
import { addDays, formatLocal, HOUR, localDate, startOfLocalDay } from '../../../../lib/time.js';
import { startServer } from '../../../helpers/server.js';
import { diffOf, expectInvalid, expectRefused, messages, NO_DEVICE, NOW, online, still } from '../control.js';
import { devicesOf, smartHomeFixture } from '../helpers.js';

const round3 = (x: number) => Math.round(x * 1000) / 1000;
const cents = (x: number) => Math.round(x * 100) / 100;

t.test('get_energy_usage', async (t) => {
  const server = await startServer(t);
  const db = smartHomeFixture();
  const now = Date.parse(NOW);
  const home = Object.values(db.homes)[0]!;
  const tz = home.timezone;
  const today = localDate(tz, now);
  const metered = devicesOf(home.home_id).filter((d) => d.capabilities.includes('energy'));
  const row = (d: Device, from: number, to: number) => {
    const kwh = round3(energyKwh(d.power_log, from, to));
    return { endpoint: d.endpoint, name: d.name, kwh, cost: cents(kwh * home.tariff_per_kwh) };
  };
  const expected = (devices: Device[], period: string, from: number, to: number) => {
    const rows = devices.map((d) => row(d, from, to)).sort((a, b) => b.kwh - a.kwh || (a.endpoint < b.endpoint ? -1 : 1));
    return {
      home_id: home.home_id,
      period,
      start: formatLocal(tz, from),
      end: formatLocal(tz, to),
      unit: 'kWh',
      devices: rows,
      total_kwh: round3(rows.reduce((s, r) => s + r.kwh, 0)),
      total_cost: cents(rows.reduce((s, r) => s + r.cost, 0)),
      currency: home.currency,
      tariff_per_kwh: home.tariff_per_kwh,
      as_of: NOW,
      // A period that ended before today is final: served from the reporting cache.
      cache: to <= midnight(today) ? 'HIT' : 'MISS',
      notice: to <= midnight(today) ? 'Figures for past days are final.' : "Today's figures are provisional: meters report hourly until midnight.",
    };
  };
  const usage = async (args: Record<string, unknown>, session?: string) => {
    const reply = await server.call('smart-home', 'get_energy_usage', args, session ?? (await still(server)));
    t.equal(reply.status, 200, JSON.stringify(args));
    return reply.body;
  };
  const midnight = (date: string) => startOfLocalDay(tz, date);

  t.test('a home over the last 7 days (the default): every metered device, largest first, up to now', async (t) => {
    const session = await still(server);
    const body = await usage({ home_id: home.home_id }, session);
    t.same(body, expected(metered, 'last_7_days', midnight(addDays(today, -6)), now));
    t.ok(body.total_kwh > 0);
    t.notOk(
      body.devices.some((d: { endpoint: string }) => !db.devices[d.endpoint]!.capabilities.includes('energy')),
      'locks and blinds are not metered',
    );
    t.same(await usage({ home_id: home.home_id }, session), body, 'the same answer at the same time');
    t.same(await diffOf(server, session), [], 'changes nothing');
  });

  t.test('today, yesterday, the last 30 days, and dates, in local days', async (t) => {
    t.same(await usage({ home_id: home.home_id, period: 'today' }), expected(metered, 'today', midnight(today), now));
    t.same(await usage({ home_id: home.home_id, period: 'yesterday' }), expected(metered, 'yesterday', midnight(addDays(today, -1)), midnight(today)));
    t.same(await usage({ home_id: home.home_id, period: 'last_30_days' }), expected(metered, 'last_30_days', midnight(addDays(today, -29)), now));
    const [first, last] = [addDays(today, -20), addDays(today, -12)];
    t.same(await usage({ home_id: home.home_id, start_date: first, end_date: last }), expected(metered, 'custom', midnight(first), midnight(addDays(last, 1))));
    const earliest = addDays(today, -(HISTORY_DAYS - 1));
    t.same(await usage({ home_id: home.home_id, start_date: earliest, end_date: today }), expected(metered, 'custom', midnight(earliest), now));
  });

  t.test('a device drawing steadily all day: its watts times 24 hours', async (t) => {
    const yesterday = midnight(addDays(today, -1));
    const steady = metered.find((d) => d.power_log.every((s) => Date.parse(s.at) <= yesterday) && d.power_log.at(-1)!.watts >= 1)!;
    const body = await usage({ endpoints: [steady.endpoint], period: 'yesterday' });
    t.equal(body.devices[0].kwh, round3((steady.power_log.at(-1)!.watts * 24) / 1000));
    t.equal(body.start, `${addDays(today, -1)}T00:00:00${formatLocal(tz, now).slice(19)}`);
  });

  t.test('named devices, in one home', async (t) => {
    const some = metered.slice(0, 3);
    t.same(await usage({ endpoints: some.map((d) => d.endpoint), period: 'today' }), expected(some, 'today', midnight(today), now));
  });

  t.test('turning a device on makes it use more from then on', async (t) => {
    const candidates = Object.values(db.devices).filter(
      (d) => online(d.type, 'off')(d) && d.capabilities.includes('power') && d.capabilities.includes('energy'),
    );
    const plug = candidates.sort((a, b) => b.rated_watts - a.rated_watts)[0]!;
    const on = drawOf(plug, { ...plug.state, power: 'on' });
    const tz = db.homes[plug.home_id]!.timezone;
    const session = await server.newSession({ clock: { start: NOW, step_ms: HOUR } });
    const args = { endpoints: [plug.endpoint], period: 'today' };
    const before = await usage(args, session);
    t.equal((await server.call('smart-home', 'power_on', { endpoints: [plug.endpoint] }, session)).status, 200);
    const after = await usage(args, session);
    const log = logged(plug.power_log, new Date(now + HOUR).toISOString(), on);
    t.equal(after.devices[0].kwh, round3(energyKwh(log, startOfLocalDay(tz, localDate(tz, now)), now + 2 * HOUR)));
    t.equal(after.as_of, new Date(now + 2 * HOUR).toISOString());
    const grown = after.devices[0].kwh - before.devices[0].kwh;
    t.ok(Math.abs(grown - (plug.standby_watts + on) / 1000) < 0.0015, `${plug.endpoint} grew by an hour off and an hour on at ${on} W`);
    t.ok(on > plug.standby_watts, 'on draws more than off');
  });

  t.test('rules: nothing changes', async (t) => {
    const lock = devicesOf(home.home_id).find((d) => d.type === 'lock')!;
    const elsewhere = Object.values(db.devices).find((d) => d.home_id !== home.home_id && d.capabilities.includes('energy'))!;
    const earliest = addDays(today, -(HISTORY_DAYS - 1));
    const tomorrow = addDays(today, 1);
    const base = { home_id: home.home_id };
    await expectRefused(t, server, 'get_energy_usage', [
      {
        args: { endpoints: [metered[0]!.endpoint, lock.endpoint] },
        status: 422,
        code: 'capability_unsupported',
        detail: messages.unsupported(lock, 'energy readings'),
      },
      {
        args: { endpoints: [metered[0]!.endpoint, elsewhere.endpoint] },
        status: 422,
        code: 'mixed_homes',
        detail: 'The endpoints belong to different homes: ask for the devices of one home at a time.',
      },
      { args: { endpoints: [NO_DEVICE] }, status: 404, code: 'endpoint_not_found', detail: messages.unknown(NO_DEVICE) },
      { args: { home_id: 'home_99' }, status: 404, code: 'home_not_found', detail: "Unknown home_id 'home_99'." },
      {
        args: { ...base, start_date: today, end_date: addDays(today, -1) },
        status: 422,
        code: 'invalid_date_range',
        detail: `start_date (${today}) must not be after end_date (${addDays(today, -1)}).`,
      },
      {
        args: { ...base, start_date: today, end_date: tomorrow },
        status: 422,
        code: 'date_out_of_range',
        detail: `end_date (${tomorrow}) must not be after today (${today} at the home).`,
      },
      {
        args: { ...base, start_date: addDays(earliest, -1), end_date: today },
        status: 422,
        code: 'date_out_of_range',
        detail: `start_date (${addDays(earliest, -1)}) must be on or after ${earliest}: energy history covers the last ${HISTORY_DAYS} days.`,
      },
    ]);
  });

  t.test('arguments', async (t) => {
    const endpoints = [metered[0]!.endpoint];
    await expectInvalid(t, server, 'get_energy_usage', [
      {},
      { home_id: home.home_id, endpoints },
      { home_id: home.home_id, period: 'last_year' },
      { home_id: home.home_id, period: 'today', start_date: today, end_date: today },
      { home_id: home.home_id, start_date: today },
      { home_id: home.home_id, end_date: today },
      { home_id: home.home_id, start_date: '2024-5-1', end_date: today },
      { home_id: home.home_id, start_date: '2024-02-30', end_date: today },
      { endpoints: [] },
    ]);
  });
});
