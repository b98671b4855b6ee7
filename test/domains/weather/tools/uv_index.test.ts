import t from 'tap';
import { uvRisk } from '../../../../domains/weather/tools/uv_index.js';
import { expectRejections, startServer } from '../../../helpers/server.js';
import { callAt, expectInvalid } from '../helpers.js';

t.test('uv_index', async (t) => {
  const server = await startServer(t);

  t.test('now, the next 12 hours, the protection window and daily maxima', async (t) => {
    // 12:00 in Singapore.
    const reply = await callAt(server, '2024-03-20T04:00:00Z', 'uv_index', { location_id: 'singapore-sg' });
    t.equal(reply.status, 200);
    const body = reply.body;
    t.match(body, { location: { location_id: 'singapore-sg' }, current: { time: '2024-03-20T12:00:00+08:00' } });
    t.ok(body.current.sun_elevation_deg > 60, 'the sun is high at noon on the equator');
    t.ok(body.current.uv_index >= 3, `UV ${body.current.uv_index} at noon near the equator`);
    t.equal(body.current.risk, uvRisk(body.current.uv_index));
    t.type(body.current.advice, 'string');
    t.equal(body.hourly.length, 12);
    t.equal(body.hourly[0].time, '2024-03-20T12:00:00+08:00');
    t.ok(body.protection_window, 'protection is needed at some point today');
    t.ok(body.protection_window.from < body.protection_window.to);
    t.ok(body.protection_window.from >= '2024-03-20T07' && body.protection_window.to <= '2024-03-20T19', 'in daylight');
    t.equal(body.daily.length, 3);
    t.ok(body.daily[0].uv_index_max >= body.current.uv_index, "today's maximum is at least now");
    t.ok(
      body.daily[0].uv_index_max >=
        Math.max(...body.hourly.filter((h: { time: string }) => h.time.startsWith('2024-03-20')).map((h: { uv_index: number }) => h.uv_index)),
    );
  });

  t.test('no UV at night, nor in the polar night', async (t) => {
    const night = await callAt(server, '2024-03-20T16:00:00Z', 'uv_index', { location_id: 'singapore-sg', days: 1 });
    t.equal(night.body.current.uv_index, 0);
    t.equal(night.body.current.risk, 'low');
    t.ok(night.body.current.sun_elevation_deg < 0);
    const polar = await callAt(server, '2024-06-21T00:00:00Z', 'uv_index', { location_id: 'mcmurdo-station-aq', days: 7 });
    t.ok(
      polar.body.daily.every((d: { uv_index_max: number }) => d.uv_index_max === 0),
      'no sun in the Antarctic winter',
    );
    t.equal(polar.body.protection_window, null);
  });

  t.test('summer sun is stronger, in each hemisphere', async (t) => {
    const max = async (start: string, id: string) =>
      Math.max(...(await callAt(server, start, 'uv_index', { location_id: id, days: 7 })).body.daily.map((d: { uv_index_max: number }) => d.uv_index_max));
    t.ok((await max('2024-01-10T00:00:00Z', 'sydney-au')) > (await max('2024-07-10T00:00:00Z', 'sydney-au')) + 4, 'Sydney');
    t.ok((await max('2024-07-10T00:00:00Z', 'london-gb')) > (await max('2024-01-10T00:00:00Z', 'london-gb')) + 3, 'London');
  });

  t.test('WHO risk levels', async (t) => {
    t.same([0, 2.4, 2.5, 5.4, 6, 7.4, 8, 10.4, 10.5, 14].map(uvRisk), [
      'low',
      'low',
      'moderate',
      'moderate',
      'high',
      'high',
      'very_high',
      'very_high',
      'extreme',
      'extreme',
    ]);
  });

  t.test('more than 7 days is refused (422)', async (t) => {
    await expectRejections(t, server, 'weather', 'uv_index', [
      { args: { location_id: 'sydney-au', days: 8 }, status: 422, detail: 'days must be between 1 and 7: the UV forecast covers at most 7 days.' },
    ]);
    const week = await server.call('weather', 'uv_index', { lat: -33.9, lon: 151.2, days: 7 });
    t.equal(week.body.daily.length, 7);
    t.equal(week.body.resolved.lat, -33.9);
  });

  t.test('invalid arguments answer 400 naming the field', async (t) => {
    await expectInvalid(t, server, 'uv_index', [
      { args: {}, field: 'location_id' },
      { args: { location_id: 'sydney-au', days: -1 }, field: 'days' },
      { args: { location_id: 'sydney-au', hours: 5 }, field: 'hours' },
    ]);
  });
});
