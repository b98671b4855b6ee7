import t from 'tap';
import { expectRejections, startServer } from '../../../helpers/server.js';
import { expectInvalid } from '../helpers.js';

const minutes = (iso: string) => Number(iso.slice(11, 13)) * 60 + Number(iso.slice(14, 16));

t.test('sun_times', async (t) => {
  const server = await startServer(t);
  const sun = (args: Record<string, unknown>) => server.call('weather', 'sun_times', args);

  t.test('today at the place by default: dawn, sunrise, noon, sunset, dusk in order', async (t) => {
    const reply = await sun({ location_id: 'tokyo-jp' });
    t.equal(reply.status, 200);
    const b = reply.body;
    t.equal(b.date, '2024-05-16', "Tokyo's local date");
    t.ok(b.civil_dawn < b.sunrise && b.sunrise < b.solar_noon && b.solar_noon < b.sunset && b.sunset < b.civil_dusk, 'in order');
    t.match(b.sunrise, /^2024-05-16T04:\d\d:\d\d\+09:00$/);
    t.equal(b.daylight_minutes, Math.round((Date.parse(b.sunset) - Date.parse(b.sunrise)) / 60_000));
    t.match(b.daylight, /^1[34]h \d\dm$/);
    t.ok(b.daylight_change_minutes > 0, 'days lengthen in May in the north');
    t.equal(b.polar, null);
  });

  t.test('astronomically right: London at the solstice, the equinox at the equator', async (t) => {
    const london = (await sun({ location_id: 'london-gb', date: '2024-06-21' })).body;
    t.ok(Math.abs(minutes(london.sunrise) - (4 * 60 + 43)) <= 3, `London sunrise ${london.sunrise} ≈ 04:43 BST`);
    t.ok(Math.abs(minutes(london.sunset) - (21 * 60 + 21)) <= 3, `London sunset ${london.sunset} ≈ 21:21 BST`);
    t.match(london.sunrise, /\+01:00$/);
    const winter = (await sun({ location_id: 'london-gb', date: '2024-12-21' })).body;
    t.ok(Math.abs(minutes(winter.sunrise) - (8 * 60 + 4)) <= 3, `London winter sunrise ${winter.sunrise} ≈ 08:04 GMT`);
    t.ok(winter.daylight_minutes < 8 * 60);
    const singapore = (await sun({ location_id: 'singapore-sg', date: '2024-03-20' })).body;
    t.ok(Math.abs(singapore.daylight_minutes - 12 * 60 - 7) <= 4, 'about 12 hours at the equator');
    const oslo = (await sun({ location_id: 'oslo-no', date: '2024-06-21' })).body;
    t.ok(oslo.daylight_minutes > 18 * 60, 'long Nordic summer days');
  });

  t.test('polar day and polar night', async (t) => {
    const winter = (await sun({ location_id: 'mcmurdo-station-aq', date: '2024-06-21' })).body;
    t.match(winter, { sunrise: null, sunset: null, daylight_minutes: 0, daylight: '0h 00m', polar: 'polar_night', civil_dawn: null, civil_dusk: null });
    const summer = (await sun({ location_id: 'mcmurdo-station-aq', date: '2024-12-21' })).body;
    t.match(summer, { sunrise: null, sunset: null, daylight_minutes: 1440, daylight: '24h 00m', polar: 'polar_day' });
    t.type(summer.solar_noon, 'string');
    const edge = (await sun({ location_id: 'mcmurdo-station-aq', date: '2024-08-20' })).body;
    t.equal(edge.polar, null, 'the sun is back in late August');
    t.ok(edge.daylight_change_minutes > 0);
  });

  t.test('by coordinates; the southern winter is short', async (t) => {
    const reply = await sun({ lat: -33.87, lon: 151.21, date: '2024-06-21' });
    t.equal(reply.body.location.location_id, 'sydney-au');
    t.ok(reply.body.daylight_minutes < 10 * 60);
    t.match(reply.body.sunrise, /\+10:00$/);
  });

  t.test('dates out of range are refused (422); malformed dates are 400', async (t) => {
    await expectRejections(t, server, 'weather', 'sun_times', [
      { args: { location_id: 'oslo-no', date: '1899-12-31' }, status: 422, detail: 'date must be from 1900-01-01 to 2100-12-31.' },
      { args: { location_id: 'oslo-no', date: '2101-01-01' }, status: 422, detail: 'date must be from 1900-01-01 to 2100-12-31.' },
    ]);
    await expectInvalid(t, server, 'sun_times', [
      { args: { location_id: 'oslo-no', date: '2024-02-30' }, field: 'date' },
      { args: { location_id: 'oslo-no', date: 'tomorrow' }, field: 'date' },
      { args: { location_id: 'oslo-no', date: 20240101 }, field: 'date' },
      { args: {}, field: 'location_id' },
      { args: { lat: 1 }, field: 'lon' },
    ]);
  });
});
