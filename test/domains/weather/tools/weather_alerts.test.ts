import t from 'tap';
import { airQualityIndex, pollutantsAt } from '../../../../domains/weather/air.js';
import { type AlertKind, thresholds } from '../../../../domains/weather/alerts.js';
import { placeSite } from '../../../../domains/weather/db.js';
import { type Conditions, conditionsAt } from '../../../../domains/weather/model.js';
import type { Place } from '../../../../domains/weather/schema.js';
import { expectRejections, startServer } from '../../../helpers/server.js';
import { expectInvalid, place } from '../helpers.js';

const HOUR = 3_600_000;

/** The first hour (3-hour steps) from `from` when the test holds at the place, from the model itself. */
function firstHour(p: Place, from: string, days: number, test: (c: Conditions, p: Place) => boolean): number {
  const site = placeSite(p);
  const start = Date.parse(from);
  for (let at = start; at < start + days * 24 * HOUR; at += 3 * HOUR) if (test(conditionsAt(site, at), p)) return at;
  throw new Error(`no hour found at ${p.id}`);
}

interface Scenario {
  kind: AlertKind;
  place: string;
  from: string;
  test: (c: Conditions, p: Place) => boolean;
  /** What the hourly forecast shows while the alert runs. */
  evidence: (hour: Record<string, number | string>, p: Place) => boolean;
}

const SCENARIOS: Scenario[] = [
  {
    kind: 'heat',
    place: 'phoenix-us',
    from: '2024-06-01T00:00:00Z',
    test: (c, p) => c.temperature >= thresholds(p).heat + 0.3,
    evidence: (h, p) => (h.temperature as number) >= thresholds(p).heat - 0.05,
  },
  {
    kind: 'wind',
    place: 'wellington-nz',
    from: '2024-05-15T00:00:00Z',
    test: (c) => c.gust >= 75 && c.condition !== 'thunderstorm',
    evidence: (h) => (h.wind_gust as number) >= 70,
  },
  {
    kind: 'thunderstorm',
    place: 'singapore-sg',
    from: '2024-01-01T00:00:00Z',
    test: (c) => c.condition === 'thunderstorm' && c.gust >= 60,
    evidence: (h) => h.condition === 'thunderstorm' && (h.wind_gust as number) >= 55,
  },
  {
    kind: 'heavy_rain',
    place: 'mumbai-in',
    from: '2024-06-15T00:00:00Z',
    test: (c) => c.precip >= 11,
    evidence: (h) => (h.precipitation as number) >= 10,
  },
  {
    kind: 'winter_storm',
    place: 'chicago-us',
    from: '2024-01-01T00:00:00Z',
    test: (c) => c.snow >= 1.7,
    evidence: (h) => (h.snowfall as number) >= 1.5,
  },
  {
    kind: 'extreme_cold',
    place: 'yakutsk-ru',
    from: '2024-01-01T00:00:00Z',
    test: (c, p) => c.feelsLike <= thresholds(p).cold - 0.3,
    evidence: (h, p) => (h.feels_like as number) <= thresholds(p).cold + 0.05,
  },
];

t.test('weather_alerts', async (t) => {
  const server = await startServer(t);

  t.test('each kind of alert is issued when and where the data call for it', async (t) => {
    for (const scenario of SCENARIOS) {
      const p = place(scenario.place);
      const at = firstHour(p, scenario.from, 366, scenario.test);
      const start = new Date(at - 2 * HOUR).toISOString();
      const session = await server.newSession({ clock: { start, step_ms: 0 } });
      const reply = await server.call('weather', 'weather_alerts', { location_id: p.id }, session);
      t.equal(reply.status, 200, scenario.kind);
      const alert = reply.body.alerts.find((a: { kind: string }) => a.kind === scenario.kind);
      if (!t.ok(alert, `${scenario.kind} alert for ${p.name} at ${start}`)) continue;
      t.match(alert, {
        id: new RegExp(`^${scenario.kind.toUpperCase().replace('_', '')}-${p.id}-\\d{8}T\\d{2}Z$`),
        severity: /^(moderate|severe|extreme)$/,
        status: /^(active|upcoming)$/,
        location_id: p.id,
        area: `${p.name}, ${p.region}, ${p.country}`,
      });
      t.match(alert.headline, `${alert.event} for ${p.name}`);
      t.ok(alert.onset < alert.expires, 'onset before expiry');
      t.equal(alert.status, Date.parse(alert.onset) <= Date.parse(start) ? 'active' : 'upcoming');
      t.equal(reply.body.as_of, start, 'the list is as of now');
      t.equal(Date.parse(alert.onset) - Date.parse(alert.issued_at), 48 * HOUR, 'issued when it came within the 48 hours ahead');
      t.ok(Date.parse(alert.issued_at) <= Date.parse(start), 'issued by now');
      // The hourly forecast shows the hazard during the alert.
      const hours = (await server.call('weather', 'weather_hourly', { location_id: p.id, hours: 48 }, session)).body.hours as ({ time: string } & Record<
        string,
        number | string
      >)[];
      const during = hours.filter((h) => h.time >= alert.onset && h.time < alert.expires);
      t.ok(
        during.some((h) => scenario.evidence(h, p)),
        `${scenario.kind}: the hourly data show it`,
      );
    }
  });

  t.test('air quality alerts follow the index, relative to what is usual for the place', async (t) => {
    const p = place('delhi-in');
    const site = placeSite(p);
    const limit = thresholds(p).aqi;
    t.ok(limit > 151, 'a polluted city needs more than the absolute threshold');
    const at = firstHour(p, '2023-11-01T00:00:00Z', 366, (c) => airQualityIndex(pollutantsAt(site, c)).aqi >= limit + 5);
    const start = new Date(at - HOUR).toISOString();
    const session = await server.newSession({ clock: { start, step_ms: 0 } });
    const alerts = (await server.call('weather', 'weather_alerts', { location_id: p.id }, session)).body.alerts;
    const alert = alerts.find((a: { kind: string }) => a.kind === 'air_quality');
    t.match(alert, { event: 'Air Quality Alert', location_id: 'delhi-in' });
    t.match(alert.description, /Air quality index up to \d+/);
    const aq = (await server.call('weather', 'air_quality', { location_id: p.id, days: 3 }, session)).body;
    t.ok(
      aq.daily.some((d: { aqi_max: number }) => d.aqi_max >= limit),
      'the air quality outlook shows it',
    );
  });

  t.test('no hazard in the data, no alert', async (t) => {
    const reply = await server.call('weather', 'weather_alerts', { location_id: 'los-angeles-us' });
    t.equal(reply.status, 200);
    t.match(reply.body, { scope: 'Los Angeles, California, United States', location_ids: ['los-angeles-us'], count: 0, alerts: [] });
    const hours = (await server.call('weather', 'weather_hourly', { location_id: 'los-angeles-us', hours: 48 })).body.hours;
    t.ok(hours.every((h: { wind_gust: number; temperature: number }) => h.wind_gust < 70 && h.temperature < thresholds(place('los-angeles-us')).heat));
  });

  t.test('a whole country or region at once; lat/lon for the nearest place', async (t) => {
    const il = await server.call('weather', 'weather_alerts', { country: 'US', region: 'IL' });
    t.equal(il.status, 200);
    t.same(il.body.location_ids, ['chicago-us', 'springfield-il-us']);
    t.equal(il.body.scope, 'Illinois, United States (2 places)');
    const nz = await server.call('weather', 'weather_alerts', { country: 'New Zealand' });
    t.same(nz.body.location_ids, ['auckland-nz', 'wellington-nz']);
    const ontario = await server.call('weather', 'weather_alerts', { region: 'Ontario' });
    t.same(ontario.body.location_ids, ['toronto-ca', 'london-ca']);
    t.equal(ontario.body.scope, 'Ontario, all countries (2 places)');
    const point = await server.call('weather', 'weather_alerts', { lat: -41.3, lon: 174.8 });
    t.same(point.body.location_ids, ['wellington-nz']);
    // A region's alerts are its places' alerts.
    const session = await server.newSession({ clock: { start: '2024-05-20T00:00:00Z', step_ms: 0 } });
    const region = (await server.call('weather', 'weather_alerts', { country: 'NZ', units: 'imperial' }, session)).body;
    const single = (await server.call('weather', 'weather_alerts', { location_id: 'wellington-nz', units: 'imperial' }, session)).body;
    t.same(
      region.alerts.filter((a: { location_id: string }) => a.location_id === 'wellington-nz'),
      single.alerts,
    );
    t.equal(region.units.wind_speed, 'mph');
  });

  t.test('unknown regions and places are 404', async (t) => {
    await expectRejections(t, server, 'weather', 'weather_alerts', [
      { args: { country: 'XX' }, status: 404, detail: "No known place in 'XX'. Give a country ISO code or name, and a region code or name." },
      {
        args: { country: 'US', region: 'Ontario' },
        status: 404,
        detail: "No known place in 'Ontario, US'. Give a country ISO code or name, and a region code or name.",
      },
      { args: { location_id: 'gotham-us' }, status: 404, detail: "Unknown location_id 'gotham-us'. Use geocode_location to find a place's id." },
    ]);
    t.equal((await server.call('weather', 'weather_alerts', { country: 'XX' })).body.code, 'region_not_found');
  });

  t.test('invalid arguments answer 400 naming the field', async (t) => {
    await expectInvalid(t, server, 'weather_alerts', [
      { args: {}, field: 'location_id' },
      { args: { location_id: 'oslo-no', country: 'NO' }, field: 'country' },
      { args: { lat: 1, lon: 2, region: 'X' }, field: 'region' },
      { args: { country: '' }, field: 'country' },
      { args: { lat: 10 }, field: 'lon' },
      { args: { country: 'US', units: 'nautical' }, field: 'units' },
      { args: { country: 'US', severity: 'severe' }, field: 'severity' },
    ]);
  });
});
