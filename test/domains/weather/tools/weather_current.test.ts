import t from 'tap';
import { expectRejections, startServer } from '../../../helpers/server.js';
import { callAt, expectInvalid } from '../helpers.js';

const METRIC = { system: 'metric', temperature: '°C', wind_speed: 'km/h', precipitation: 'mm', snowfall: 'cm', pressure: 'hPa', visibility: 'km' };
const IMPERIAL = { system: 'imperial', temperature: '°F', wind_speed: 'mph', precipitation: 'in', snowfall: 'in', pressure: 'inHg', visibility: 'mi' };

t.test('weather_current', async (t) => {
  const server = await startServer(t);

  t.test("the model's nowcast for a place, in metric units by default", async (t) => {
    const reply = await server.call('weather', 'weather_current', { location_id: 'portland-or-us' });
    t.equal(reply.status, 200);
    t.match(reply.body, {
      provider: 'model',
      location: { location_id: 'portland-or-us', name: 'Portland', region: 'Oregon', timezone: 'America/Los_Angeles' },
      resolved: null,
      valid_at: '2024-05-15T13:00:00-07:00',
      local_time: /^2024-05-15T13:00:\d\d-07:00$/,
      units: METRIC,
    });
    const c = reply.body.current;
    t.ok(c.temperature > 0 && c.temperature < 35, `May afternoon in Portland: ${c.temperature} °C`);
    t.ok(c.dewpoint <= c.temperature, 'dew point at most the temperature');
    t.ok(c.humidity_pct >= 1 && c.humidity_pct <= 100);
    t.ok(c.pressure > 950 && c.pressure < 1060);
    t.ok(c.wind_gust >= c.wind_speed, 'gusts at least the mean wind');
    t.ok(c.wind_direction_deg >= 0 && c.wind_direction_deg < 360);
    t.ok(c.cloud_cover_pct >= 0 && c.cloud_cover_pct <= 100);
    t.ok(c.precipitation >= 0 && c.snowfall === 0, 'no snow in May in Portland');
    t.ok(c.uv_index > 0, 'the sun is up at 13:00');
    t.equal(c.is_day, true);
    t.type(c.description, 'string');
  });

  t.test('the nowcast is issued every 15 minutes', async (t) => {
    const at = await callAt(server, '2024-05-15T20:14:59Z', 'weather_current', { location_id: 'portland-or-us' });
    const before = await callAt(server, '2024-05-15T20:00:00Z', 'weather_current', { location_id: 'portland-or-us' });
    const after = await callAt(server, '2024-05-15T20:15:00Z', 'weather_current', { location_id: 'portland-or-us' });
    t.equal(at.body.valid_at, '2024-05-15T13:00:00-07:00');
    t.same(at.body.current, before.body.current, 'same step, same values');
    t.equal(after.body.valid_at, '2024-05-15T13:15:00-07:00');
  });

  t.test('imperial units convert every value and say so', async (t) => {
    const session = await server.newSession({ clock: { step_ms: 0 } });
    const metric = (await server.call('weather', 'weather_current', { location_id: 'chicago-us' }, session)).body;
    const imperial = (await server.call('weather', 'weather_current', { location_id: 'chicago-us', units: 'imperial' }, session)).body;
    t.same(imperial.units, IMPERIAL);
    const m = metric.current;
    const i = imperial.current;
    t.ok(Math.abs(i.temperature - (m.temperature * 9) / 5 - 32) < 0.2, 'temperature in °F');
    t.ok(Math.abs(i.wind_speed - m.wind_speed / 1.609344) < 0.1, 'wind in mph');
    t.ok(Math.abs(i.pressure - m.pressure * 0.02953) < 0.02, 'pressure in inHg');
    t.ok(Math.abs(i.visibility - m.visibility / 1.609344) < 0.1, 'visibility in miles');
    t.equal(i.humidity_pct, m.humidity_pct, 'percentages do not change');
    t.equal(i.condition, m.condition);
  });

  t.test('lat/lon answers for the nearest place within 100 km, and says which', async (t) => {
    const session = await server.newSession({ clock: { step_ms: 0 } });
    const byPoint = (await server.call('weather', 'weather_current', { lat: 45.6, lon: -122.5 }, session)).body;
    const byId = (await server.call('weather', 'weather_current', { location_id: 'portland-or-us' }, session)).body;
    t.equal(byPoint.location.location_id, 'portland-or-us');
    t.match(byPoint.resolved, { lat: 45.6, lon: -122.5 });
    t.ok(byPoint.resolved.distance_km > 10 && byPoint.resolved.distance_km < 20);
    t.same(byPoint.current, byId.current, 'the same weather as the place');
  });

  t.test('the same clock gives the same weather; another clock, other weather', async (t) => {
    const first = await callAt(server, '2024-03-02T09:00:00Z', 'weather_current', { location_id: 'london-gb' });
    const again = await callAt(server, '2024-03-02T09:00:00Z', 'weather_current', { location_id: 'london-gb' });
    const later = await callAt(server, '2024-03-05T09:00:00Z', 'weather_current', { location_id: 'london-gb' });
    t.same(again.body, first.body, 'deterministic');
    t.not(JSON.stringify(later.body.current), JSON.stringify(first.body.current), 'another day, other values');
    t.equal(first.body.local_time, '2024-03-02T09:00:00+00:00');
  });

  t.test('winter in the south is summer in the north', async (t) => {
    const temp = async (start: string, id: string) => (await callAt(server, start, 'weather_current', { location_id: id })).body.current.temperature;
    // Local early afternoon in both places.
    t.ok((await temp('2024-01-15T03:00:00Z', 'sydney-au')) > (await temp('2024-07-15T03:00:00Z', 'sydney-au')), 'Sydney: January warmer');
    t.ok((await temp('2024-07-15T12:00:00Z', 'oslo-no')) > (await temp('2024-01-15T12:00:00Z', 'oslo-no')), 'Oslo: July warmer');
  });

  t.test('unknown places and points without coverage are 404', async (t) => {
    await expectRejections(t, server, 'weather', 'weather_current', [
      {
        args: { location_id: 'portland-us' },
        status: 404,
        detail: "Unknown location_id 'portland-us'. Did you mean 'portland-me-us', 'portland-or-us'? Use geocode_location to find a place's id.",
      },
      { args: { location_id: 'atlantis' }, status: 404, detail: "Unknown location_id 'atlantis'. Use geocode_location to find a place's id." },
      {
        args: { lat: 0, lon: -140 },
        status: 404,
        detail:
          'No model coverage at 0, -140: the nearest covered place is more than 100 km away. Use geocode_location or reverse_geocode to find a covered place.',
      },
    ]);
    t.equal((await server.call('weather', 'weather_current', { location_id: 'atlantis' })).body.code, 'location_not_found');
    t.equal((await server.call('weather', 'weather_current', { lat: 0, lon: -140 })).body.code, 'no_coverage');
  });

  t.test('invalid arguments answer 400 naming the field', async (t) => {
    await expectInvalid(t, server, 'weather_current', [
      { args: {}, field: 'location_id' },
      { args: { location_id: '' }, field: 'location_id' },
      { args: { lat: 45 }, field: 'lon' },
      { args: { lon: -122 }, field: 'lat' },
      { args: { location_id: 'oslo-no', lat: 45, lon: -122 }, field: 'location_id' },
      { args: { lat: '45', lon: -122 }, field: 'lat' },
      { args: { lat: 45, lon: 200 }, field: 'lon' },
      { args: { location_id: 'oslo-no', units: 'kelvin' }, field: 'units' },
      { args: { location_id: 'oslo-no', city: 'Oslo' }, field: 'city' },
    ]);
    t.same((await server.request('GET', '/sessions/default/diff')).body.weather, [], 'read-only');
  });
});
