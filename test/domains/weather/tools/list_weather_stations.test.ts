import t from 'tap';
import { latestReport } from '../../../../domains/weather/stations.js';
import { expectRejections, startServer } from '../../../helpers/server.js';
import { DEFAULT_NOW, callAt, expectInvalid, findStation, stationsOf } from '../helpers.js';

const DAY = 86_400_000;

interface Listed {
  station_id: string;
  distance_km: number;
  location_id: string;
  status: string;
  last_report_at: string | null;
  minutes_since_report: number | null;
  report_interval_min: number;
}

t.test('list_weather_stations', async (t) => {
  const server = await startServer(t);

  t.test('the stations near a place, nearest first, with their last report', async (t) => {
    const reply = await server.call('weather', 'list_weather_stations', { location_id: 'portland-or-us' });
    t.equal(reply.status, 200);
    t.match(reply.body, { center: { location_id: 'portland-or-us', lat: 45.5152, lon: -122.6784 }, radius_km: 50 });
    const stations = reply.body.stations as Listed[];
    t.equal(reply.body.count, stations.length);
    const own = stationsOf('portland-or-us')
      .map((s) => s.id)
      .sort();
    t.same(
      stations
        .filter((s) => s.location_id === 'portland-or-us')
        .map((s) => s.station_id)
        .sort(),
      own,
      'every station of the place',
    );
    t.ok(
      stations.some((s) => s.station_id === 'KPDX'),
      'the airport station',
    );
    t.same(
      stations.map((s) => s.distance_km),
      [...stations.map((s) => s.distance_km)].sort((a, b) => a - b),
      'nearest first',
    );
    for (const s of stations) {
      t.ok(s.distance_km <= 50);
      t.match(s, { provider: 'network', kind: /^(airport|urban|suburban|rural)$/, direction: /^[NSEW]{1,3}$/ });
      t.match(s.station_id, /^([A-Z]{4}|ST-\d{5})$/);
      if (s.status === 'reporting') t.ok(s.minutes_since_report! <= Math.max(60, 2 * s.report_interval_min));
      t.match(s.last_report_at, /^2024-05-15T1[23]:\d\d:00-07:00$/);
    }
  });

  t.test('around a point, a radius, a limit', async (t) => {
    const point = await server.call('weather', 'list_weather_stations', { lat: 51.5, lon: -0.12, radius_km: 100, limit: 2 });
    t.equal(point.body.center.location_id, null);
    t.equal(point.body.stations.length, Math.min(2, point.body.count));
    const tiny = await server.call('weather', 'list_weather_stations', { location_id: 'london-gb', radius_km: 0.01 });
    t.same(tiny.body, { center: tiny.body.center, radius_km: 0.01, count: 0, stations: [] }, 'nothing that close');
    const ocean = await server.call('weather', 'list_weather_stations', { lat: 0, lon: -140 });
    t.equal(ocean.status, 200, 'a point without stations is an empty list, not an error');
    t.equal(ocean.body.count, 0);
  });

  t.test('a silent station is delayed, then offline', async (t) => {
    const gone = findStation((s) => s.offline_since !== null && Date.parse(s.offline_since) < DEFAULT_NOW - 7 * DAY);
    const list = async (start: string) =>
      ((await callAt(server, start, 'list_weather_stations', { location_id: gone.location_id, radius_km: 100 })).body.stations as Listed[]).find(
        (s) => s.station_id === gone.id,
      )!;
    const offline = await list('2024-05-15T20:00:00Z');
    t.match(offline, { status: 'offline', last_report_at: null, minutes_since_report: null });
    const dayAfter = new Date(Date.parse(gone.offline_since!) + DAY).toISOString();
    const delayed = await list(dayAfter);
    t.equal(delayed.status, 'delayed');
    t.ok(delayed.minutes_since_report! >= 24 * 60 - 1);
    const before = await list(new Date(Date.parse(gone.offline_since!) - 2 * 3_600_000).toISOString());
    t.not(before.status, 'offline', 'it reported before it went offline');
  });

  t.test('unreliable stations fall behind now and then', async (t) => {
    const flaky = findStation((s) => s.reliability < 0.6 && s.offline_since === null);
    let at = DEFAULT_NOW;
    while (at - latestReport(flaky, at)! <= 90 * 60_000) at += 3_600_000;
    const listed = (
      (await callAt(server, new Date(at).toISOString(), 'list_weather_stations', { location_id: flaky.location_id, radius_km: 100 })).body.stations as Listed[]
    ).find((s) => s.station_id === flaky.id)!;
    t.equal(listed.status, 'delayed');
    t.ok(listed.minutes_since_report! > 90);
  });

  t.test('errors', async (t) => {
    await expectRejections(t, server, 'weather', 'list_weather_stations', [
      { args: { location_id: 'gondor' }, status: 404, detail: "Unknown location_id 'gondor'. Use geocode_location to find a place's id." },
    ]);
    await expectInvalid(t, server, 'list_weather_stations', [
      { args: {}, field: 'location_id' },
      { args: { location_id: 'oslo-no', radius_km: 0 }, field: 'radius_km' },
      { args: { location_id: 'oslo-no', radius_km: 301 }, field: 'radius_km' },
      { args: { location_id: 'oslo-no', limit: 51 }, field: 'limit' },
      { args: { lat: 59 }, field: 'lon' },
      { args: { location_id: 'oslo-no', provider: 'network' }, field: 'provider' },
    ]);
  });
});
