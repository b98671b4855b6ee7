import t from 'tap';
import { expectRejections, startServer } from '../../../helpers/server.js';
import { callAt, expectInvalid } from '../helpers.js';

interface Day {
  date: string;
  temperature_max: number;
  temperature_min: number;
  temperature_mean: number;
  precipitation: number;
  precipitation_probability_pct: number;
  wind_speed_max: number;
  wind_gust_max: number;
  uv_index_max: number;
  sunrise: string | null;
  sunset: string | null;
}

interface Hour {
  time: string;
  temperature: number;
  precipitation: number;
  wind_speed: number;
  wind_gust: number;
  uv_index: number;
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

t.test('weather_forecast', async (t) => {
  const server = await startServer(t);

  t.test('seven days by default, day 1 being the local today', async (t) => {
    const reply = await server.call('weather', 'weather_forecast', { location_id: 'chicago-us' });
    t.equal(reply.status, 200);
    t.match(reply.body, { provider: 'model', location: { location_id: 'chicago-us' }, resolved: null, issued_at: /^2024-05-15T15:00:\d\d-05:00$/ });
    t.same(
      reply.body.days.map((d: Day) => d.date),
      ['2024-05-15', '2024-05-16', '2024-05-17', '2024-05-18', '2024-05-19', '2024-05-20', '2024-05-21'],
    );
    for (const day of reply.body.days as Day[]) {
      t.ok(day.temperature_min <= day.temperature_mean && day.temperature_mean <= day.temperature_max, `${day.date}: min ≤ mean ≤ max`);
      t.ok(day.temperature_max - day.temperature_min < 25, `${day.date}: a plausible daily range`);
      t.ok(day.precipitation >= 0 && day.precipitation_probability_pct >= 0 && day.precipitation_probability_pct <= 100);
      t.ok(day.wind_gust_max >= day.wind_speed_max);
      t.ok(day.sunrise! < day.sunset!, `${day.date}: sunrise before sunset`);
      t.equal(day.sunrise!.slice(0, 10), day.date);
    }
    // Tokyo is already on the 16th at 20:00 UTC.
    const tokyo = await server.call('weather', 'weather_forecast', { location_id: 'tokyo-jp', days: 2 });
    t.same(
      tokyo.body.days.map((d: Day) => d.date),
      ['2024-05-16', '2024-05-17'],
    );
    t.match(tokyo.body.issued_at, /\+09:00$/);
  });

  t.test('each day is the sum of its hours as weather_hourly gives them', async (t) => {
    for (const id of ['chicago-us', 'delhi-in', 'mumbai-in', 'wellington-nz']) {
      const session = await server.newSession({ clock: { step_ms: 0 } });
      const days = (await server.call('weather', 'weather_forecast', { location_id: id, days: 3 }, session)).body.days as Day[];
      const hours = (await server.call('weather', 'weather_hourly', { location_id: id, hours: 48 }, session)).body.hours as Hour[];
      const on = (date: string) => hours.filter((h) => h.time.startsWith(date));
      // Day 2 lies wholly within the next 48 hours.
      const tomorrow = on(days[1]!.date);
      t.ok(tomorrow.length >= 23, `${id}: tomorrow has all its hours`);
      t.equal(Math.max(...tomorrow.map((h) => h.temperature)), days[1]!.temperature_max, `${id}: tomorrow's high is its warmest hour`);
      t.equal(Math.min(...tomorrow.map((h) => h.temperature)), days[1]!.temperature_min, `${id}: tomorrow's low is its coldest hour`);
      t.equal(Math.max(...tomorrow.map((h) => h.wind_gust)), days[1]!.wind_gust_max, `${id}: strongest gust`);
      t.ok(Math.abs(tomorrow.reduce((sum, h) => sum + h.precipitation, 0) - days[1]!.precipitation) <= 0.05 * 24 + 0.05, `${id}: precipitation adds up`);
      t.ok(days[1]!.uv_index_max >= Math.max(...tomorrow.map((h) => h.uv_index)), `${id}: UV maximum`);
      // Day 1's remaining hours stay within the day's range.
      const today = on(days[0]!.date);
      t.ok(today.length >= 1);
      t.ok(
        today.every((h) => h.temperature <= days[0]!.temperature_max && h.temperature >= days[0]!.temperature_min),
        `${id}: today's hours within today's range`,
      );
    }
  });

  t.test('Dubai in May is hotter than Oslo; Singapore barely has seasons', async (t) => {
    const session = await server.newSession({ clock: { step_ms: 0 } });
    const highs = async (id: string) =>
      mean(((await server.call('weather', 'weather_forecast', { location_id: id }, session)).body.days as Day[]).map((d) => d.temperature_max));
    const dubai = await highs('dubai-ae');
    const oslo = await highs('oslo-no');
    t.ok(dubai > 30, `Dubai highs ${dubai.toFixed(1)} °C`);
    t.ok(oslo < 22, `Oslo highs ${oslo.toFixed(1)} °C`);
    t.ok(dubai - oslo > 12, 'a desert in May is much hotter than Scandinavia');
    t.ok((await highs('yakutsk-ru')) < dubai - 15, 'Siberia is colder still');
  });

  t.test('seasons are inverted between the hemispheres', async (t) => {
    const highs = async (start: string, id: string) =>
      mean(((await callAt(server, start, 'weather_forecast', { location_id: id })).body.days as Day[]).map((d) => d.temperature_max));
    const sydneyJan = await highs('2024-01-10T00:00:00Z', 'sydney-au');
    const sydneyJul = await highs('2024-07-10T00:00:00Z', 'sydney-au');
    const chicagoJan = await highs('2024-01-10T18:00:00Z', 'chicago-us');
    const chicagoJul = await highs('2024-07-10T18:00:00Z', 'chicago-us');
    t.ok(sydneyJan > sydneyJul + 5, `Sydney: January ${sydneyJan.toFixed(1)} > July ${sydneyJul.toFixed(1)}`);
    t.ok(chicagoJul > chicagoJan + 15, `Chicago: July ${chicagoJul.toFixed(1)} > January ${chicagoJan.toFixed(1)}`);
    const singaporeJan = await highs('2024-01-10T00:00:00Z', 'singapore-sg');
    const singaporeJul = await highs('2024-07-10T00:00:00Z', 'singapore-sg');
    t.ok(Math.abs(singaporeJan - singaporeJul) < 4, 'the equator has little season');
  });

  t.test('days, units and determinism', async (t) => {
    const one = await server.call('weather', 'weather_forecast', { location_id: 'oslo-no', days: 1 });
    t.equal(one.body.days.length, 1);
    const session = await server.newSession({ clock: { step_ms: 0 } });
    const metric = (await server.call('weather', 'weather_forecast', { location_id: 'oslo-no', days: 2 }, session)).body;
    const imperial = (await server.call('weather', 'weather_forecast', { location_id: 'oslo-no', days: 2, units: 'imperial' }, session)).body;
    t.equal(imperial.units.temperature, '°F');
    t.ok(Math.abs(imperial.days[0].temperature_max - (metric.days[0].temperature_max * 9) / 5 - 32) < 0.2);
    t.ok(Math.abs(imperial.days[0].precipitation - metric.days[0].precipitation / 25.4) < 0.01);
    const again = await callAt(server, '2024-05-15T20:00:00Z', 'weather_forecast', { location_id: 'oslo-no', days: 2 });
    t.same(again.body.days, metric.days, 'same clock, same forecast');
    const other = await callAt(server, '2024-06-15T20:00:00Z', 'weather_forecast', { location_id: 'oslo-no', days: 2 });
    t.not(other.body.days[0].date, metric.days[0].date);
    t.not(other.body.days[0].temperature_max, metric.days[0].temperature_max);
  });

  t.test('more than 7 days is refused (422); unknown places are 404', async (t) => {
    await expectRejections(t, server, 'weather', 'weather_forecast', [
      { args: { location_id: 'oslo-no', days: 8 }, status: 422, detail: 'days must be between 1 and 7: the forecast covers at most 7 days.' },
      { args: { location_id: 'oslo-no', days: 30 }, status: 422, detail: 'days must be between 1 and 7: the forecast covers at most 7 days.' },
      { args: { location_id: 'nowhere' }, status: 404, detail: "Unknown location_id 'nowhere'. Use geocode_location to find a place's id." },
    ]);
    t.equal((await server.call('weather', 'weather_forecast', { location_id: 'oslo-no', days: 8 })).body.code, 'days_out_of_range');
  });

  t.test('invalid arguments answer 400 naming the field', async (t) => {
    await expectInvalid(t, server, 'weather_forecast', [
      { args: {}, field: 'location_id' },
      { args: { location_id: 'oslo-no', days: 0 }, field: 'days' },
      { args: { location_id: 'oslo-no', days: 2.5 }, field: 'days' },
      { args: { location_id: 'oslo-no', days: '3' }, field: 'days' },
      { args: { lat: 59.9 }, field: 'lon' },
      { args: { location_id: 'oslo-no', units: 'SI' }, field: 'units' },
      { args: { location_id: 'oslo-no', start_date: '2024-05-16' }, field: 'start_date' },
    ]);
  });
});
