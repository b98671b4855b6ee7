import t from 'tap';
import { latestReport } from '../../../../domains/weather/stations.js';
import { expectRejections, startServer } from '../../../helpers/server.js';
import { DEFAULT_NOW, callAt, expectInvalid, findStation, place } from '../helpers.js';

const DAY = 86_400_000;

t.test('get_station_observation', async (t) => {
  const server = await startServer(t);

  t.test("an airport's latest routine report, close to the model's nowcast", async (t) => {
    const session = await server.newSession({ clock: { step_ms: 0 } });
    const reply = await server.call('weather', 'get_station_observation', { station_id: 'KPDX' }, session);
    t.equal(reply.status, 200);
    const station = findStation((s) => s.id === 'KPDX');
    t.match(reply.body, {
      provider: 'network',
      station: { station_id: 'KPDX', kind: 'airport', location_id: 'portland-or-us', lat: station.lat, lon: station.lon, elevation_m: station.elevation_m },
      units: { temperature: '°C' },
    });
    t.equal(Number(reply.body.observed_at.slice(14, 16)), station.report_offset_min, 'reported at its minute past the hour');
    t.ok(reply.body.age_minutes >= 0 && reply.body.age_minutes < 60, 'reported within the hour');
    t.notOk('uv_index' in reply.body.observation, 'stations do not measure UV');
    const model = (await server.call('weather', 'weather_current', { location_id: 'portland-or-us' }, session)).body.current;
    const o = reply.body.observation;
    t.ok(Math.abs(o.temperature - model.temperature) < 3, `station ${o.temperature} °C vs model ${model.temperature} °C`);
    t.ok(Math.abs(o.pressure - model.pressure) < 3);
    t.ok(Math.abs(o.humidity_pct - model.humidity_pct) < 20);
    t.equal(o.wind_direction_deg % 10, 0, 'wind direction reported to the nearest 10°');
    t.ok(o.dewpoint <= o.temperature);
  });

  t.test('stations differ a little from the model, and from each other', async (t) => {
    const session = await server.newSession({ clock: { step_ms: 0 } });
    const differences: number[] = [];
    for (const id of ['london-gb', 'paris-fr', 'berlin-de', 'tokyo-jp', 'sydney-au', 'chicago-us']) {
      const model = (await server.call('weather', 'weather_current', { location_id: id }, session)).body.current.temperature;
      const listed = (await server.call('weather', 'list_weather_stations', { location_id: id }, session)).body.stations;
      for (const s of listed.filter((x: { status: string; location_id: string }) => x.status === 'reporting' && x.location_id === id)) {
        const obs = (await server.call('weather', 'get_station_observation', { station_id: s.station_id }, session)).body;
        differences.push(obs.observation.temperature - model);
      }
    }
    t.ok(differences.length >= 6);
    t.ok(
      differences.every((d) => Math.abs(d) < 4),
      `small differences: ${differences.map((d) => d.toFixed(1)).join(', ')}`,
    );
    t.ok(
      differences.some((d) => d !== 0),
      'but not none',
    );
  });

  t.test('a station that missed reports gives its last one, with its age', async (t) => {
    const flaky = findStation((s) => s.reliability < 0.6 && s.offline_since === null);
    let at = DEFAULT_NOW;
    while (at - latestReport(flaky, at)! <= 90 * 60_000) at += 3_600_000;
    const reply = await callAt(server, new Date(at).toISOString(), 'get_station_observation', { station_id: flaky.id });
    t.equal(reply.status, 200);
    t.ok(reply.body.age_minutes > 90, `${reply.body.age_minutes} minutes old`);
    t.equal(Date.parse(reply.body.observed_at), latestReport(flaky, at));
  });

  t.test('ids are case-insensitive; the same clock gives the same report', async (t) => {
    const a = await callAt(server, '2024-02-02T02:02:00Z', 'get_station_observation', { station_id: 'kpdx' });
    const b = await callAt(server, '2024-02-02T02:02:00Z', 'get_station_observation', { station_id: 'KPDX', units: 'imperial' });
    t.equal(a.body.station.station_id, 'KPDX');
    t.equal(a.body.observed_at, b.body.observed_at);
    t.ok(Math.abs(b.body.observation.temperature - (a.body.observation.temperature * 9) / 5 - 32) < 0.2);
    t.equal(b.body.units.temperature, '°F');
    const c = await callAt(server, '2024-02-02T02:02:00Z', 'get_station_observation', { station_id: 'kpdx' });
    t.same(c.body, a.body);
  });

  t.test('an offline station is a conflict (409); an unknown one is 404', async (t) => {
    const gone = findStation((s) => s.offline_since !== null && Date.parse(s.offline_since) < DEFAULT_NOW - 7 * DAY);
    const name = place(gone.location_id).name;
    await expectRejections(t, server, 'weather', 'get_station_observation', [
      {
        args: { station_id: gone.id },
        status: 409,
        detail:
          `Station ${gone.id} has sent no observation in the last 7 days (it is offline). Use another station near ${name} (list_weather_stations) or ` +
          `the model's weather_current.`,
      },
      { args: { station_id: 'KXYZ' }, status: 404, detail: "Unknown station_id 'KXYZ'. Use list_weather_stations to find stations near a place." },
    ]);
    t.equal((await server.call('weather', 'get_station_observation', { station_id: gone.id })).body.code, 'station_offline');
    const recent = await callAt(server, new Date(Date.parse(gone.offline_since!) + DAY).toISOString(), 'get_station_observation', { station_id: gone.id });
    t.equal(recent.status, 200, 'within 7 days, its last report is still served');
    t.ok(recent.body.age_minutes >= 24 * 60 - 1);
  });

  t.test('invalid arguments answer 400 naming the field', async (t) => {
    await expectInvalid(t, server, 'get_station_observation', [
      { args: {}, field: 'station_id' },
      { args: { station_id: '' }, field: 'station_id' },
      { args: { station_id: 123 }, field: 'station_id' },
      { args: { station_id: 'KPDX', units: 'kelvin' }, field: 'units' },
      { args: { station_id: 'KPDX', location_id: 'portland-or-us' }, field: 'location_id' },
    ]);
  });
});
