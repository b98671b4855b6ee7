import t from 'tap';
import { expectRejections, startServer } from '../../../helpers/server.js';
import { callAt, expectInvalid } from '../helpers.js';

interface Hour {
  time: string;
  temperature: number;
  dewpoint: number;
  humidity_pct: number;
  precipitation: number;
  precipitation_probability_pct: number;
  condition: string;
  uv_index: number;
  is_day: boolean;
}

const HOUR = 3_600_000;

t.test('weather_hourly', async (t) => {
  const server = await startServer(t);

  t.test('24 hours by default, from the start of the current local hour', async (t) => {
    const reply = await server.call('weather', 'weather_hourly', { location_id: 'new-york-us' });
    t.equal(reply.status, 200);
    t.match(reply.body, { provider: 'model', location: { location_id: 'new-york-us' }, units: { temperature: '°C' } });
    const hours = reply.body.hours as Hour[];
    t.equal(hours.length, 24);
    t.equal(hours[0]!.time, '2024-05-15T16:00:00-04:00');
    t.equal(hours[23]!.time, '2024-05-16T15:00:00-04:00');
    for (let i = 1; i < hours.length; i++) t.equal(Date.parse(hours[i]!.time) - Date.parse(hours[i - 1]!.time), HOUR, 'hourly steps');
    for (const h of hours) {
      t.ok(h.dewpoint <= h.temperature && h.humidity_pct <= 100, `${h.time}: humidity consistent`);
      t.ok(h.precipitation_probability_pct >= 0 && h.precipitation_probability_pct <= 100);
      if (h.precipitation > 0) t.ok(h.precipitation_probability_pct >= 80, `${h.time}: it rains, so the chance is high`);
      if (!h.is_day) t.equal(h.uv_index, 0, `${h.time}: no UV at night`);
    }
  });

  t.test('hours follow local time, also in half-hour time zones', async (t) => {
    const delhi = await server.call('weather', 'weather_hourly', { location_id: 'delhi-in', hours: 2 });
    t.same(
      delhi.body.hours.map((h: Hour) => h.time),
      ['2024-05-16T01:00:00+05:30', '2024-05-16T02:00:00+05:30'],
    );
    const tehran = await server.call('weather', 'weather_hourly', { location_id: 'tehran-ir', hours: 1 });
    t.match(tehran.body.hours[0].time, /^2024-05-15T23:00:00\+03:30$/);
  });

  t.test('the series is smooth and follows the sun', async (t) => {
    for (const id of ['phoenix-us', 'riyadh-sa', 'alice-springs-au', 'madrid-es']) {
      const hours = (await callAt(server, '2024-04-10T00:00:00Z', 'weather_hourly', { location_id: id, hours: 48 })).body.hours as Hour[];
      for (let i = 1; i < hours.length; i++) {
        t.ok(Math.abs(hours[i]!.temperature - hours[i - 1]!.temperature) < 5, `${id}: no jump between ${hours[i - 1]!.time} and ${hours[i]!.time}`);
      }
      const warmest = hours.reduce((a, b) => (b.temperature > a.temperature ? b : a));
      const coldest = hours.reduce((a, b) => (b.temperature < a.temperature ? b : a));
      const hourOf = (h: Hour) => Number(h.time.slice(11, 13));
      t.ok(hourOf(warmest) >= 11 && hourOf(warmest) <= 18, `${id}: warmest at ${warmest.time}, in the afternoon`);
      t.ok(hourOf(coldest) <= 9 || hourOf(coldest) >= 22, `${id}: coldest at ${coldest.time}, around dawn or at night`);
      t.ok(warmest.is_day && warmest.uv_index > 0, `${id}: the warmest hour is in daylight`);
    }
  });

  t.test('same clock, same hours; another clock, other hours', async (t) => {
    const a = await callAt(server, '2024-02-01T06:00:00Z', 'weather_hourly', { location_id: 'moscow-ru', hours: 6 });
    const b = await callAt(server, '2024-02-01T06:00:00Z', 'weather_hourly', { location_id: 'moscow-ru', hours: 6 });
    const c = await callAt(server, '2024-02-01T12:00:00Z', 'weather_hourly', { location_id: 'moscow-ru', hours: 6 });
    t.same(b.body, a.body);
    t.not(JSON.stringify(c.body.hours), JSON.stringify(a.body.hours));
    // The overlapping hours agree: forecasts for an hour do not depend on when they are asked.
    const overlap = a.body.hours.filter((h: Hour) => c.body.hours.some((k: Hour) => k.time === h.time));
    for (const h of overlap)
      t.same(
        c.body.hours.find((k: Hour) => k.time === h.time),
        h,
        `${h.time} agrees`,
      );
  });

  t.test('snow falls when it is cold', async (t) => {
    const hours = (await callAt(server, '2024-01-01T00:00:00Z', 'weather_hourly', { location_id: 'yakutsk-ru', hours: 48 })).body.hours as Hour[];
    t.ok(
      hours.every((h) => h.temperature < 0),
      'Yakutsk in January is below freezing',
    );
    t.ok(
      hours.every((h) => !['rain', 'drizzle', 'heavy_rain', 'thunderstorm'].includes(h.condition)),
      'no rain in the cold',
    );
  });

  t.test('more than 48 hours is refused (422)', async (t) => {
    await expectRejections(t, server, 'weather', 'weather_hourly', [
      {
        args: { location_id: 'oslo-no', hours: 49 },
        status: 422,
        detail: 'hours must be between 1 and 48: the hourly forecast covers at most 48 hours; use weather_forecast for later days.',
      },
      {
        args: { location_id: 'oslo-no-x' },
        status: 404,
        detail: "Unknown location_id 'oslo-no-x'. Did you mean 'oslo-no'? Use geocode_location to find a place's id.",
      },
    ]);
    const full = await server.call('weather', 'weather_hourly', { location_id: 'oslo-no', hours: 48 });
    t.equal(full.body.hours.length, 48);
  });

  t.test('invalid arguments answer 400 naming the field', async (t) => {
    await expectInvalid(t, server, 'weather_hourly', [
      { args: {}, field: 'location_id' },
      { args: { location_id: 'oslo-no', hours: 0 }, field: 'hours' },
      { args: { location_id: 'oslo-no', hours: 1.5 }, field: 'hours' },
      { args: { location_id: null }, field: 'location_id' }, // a null optional argument (hours) is taken as absent instead
      { args: { lat: 59.9, lon: 10.7, location_id: 'oslo-no' }, field: 'location_id' },
      { args: { location_id: 'oslo-no', unit: 'metric' }, field: 'unit' },
    ]);
  });
});
