import t from 'tap';
import { AQI_CATEGORIES, aqiCategory, airQualityIndex, subIndex, PM25_BREAKPOINTS } from '../../../../domains/weather/air.js';
import { expectRejections, startServer } from '../../../helpers/server.js';
import { callAt, expectInvalid } from '../helpers.js';

const POLLUTANTS = ['pm2_5', 'pm10', 'o3', 'no2', 'so2', 'co'];
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

t.test('air_quality', async (t) => {
  const server = await startServer(t);

  t.test('the index now, what drives it, the concentrations and a daily outlook', async (t) => {
    const reply = await server.call('weather', 'air_quality', { location_id: 'delhi-in' });
    t.equal(reply.status, 200);
    const body = reply.body;
    t.match(body, { location: { location_id: 'delhi-in' }, standard: 'US EPA AQI', valid_at: '2024-05-16T01:00:00+05:30' });
    t.ok(Number.isInteger(body.aqi) && body.aqi >= 0 && body.aqi <= 500);
    t.equal(body.category, aqiCategory(body.aqi), 'category matches the index');
    t.type(body.health_advice, 'string');
    t.same(Object.keys(body.pollutants), POLLUTANTS);
    t.equal(body.pollutants[body.dominant_pollutant].aqi, body.aqi, 'the dominant pollutant sets the index');
    for (const name of POLLUTANTS) {
      t.ok(body.pollutants[name].aqi <= body.aqi, `${name} sub-index at most the index`);
      t.equal(body.pollutants[name].unit, name === 'co' ? 'mg/m³' : 'µg/m³');
      t.ok(body.pollutants[name].concentration >= 0);
    }
    t.ok(body.pollutants.pm10.concentration >= body.pollutants.pm2_5.concentration, 'PM10 includes PM2.5');
    t.equal(body.daily.length, 3);
    t.same(
      body.daily.map((d: { date: string }) => d.date),
      ['2024-05-16', '2024-05-17', '2024-05-18'],
    );
    t.ok(body.daily[0].aqi_max >= body.aqi, "today's worst is at least now");
    for (const d of body.daily) t.equal(d.category, aqiCategory(d.aqi_max));
  });

  t.test('a polluted megacity is worse than Reykjavik', async (t) => {
    const session = await server.newSession({ clock: { step_ms: 0 } });
    const outlook = async (id: string) =>
      mean((await server.call('weather', 'air_quality', { location_id: id, days: 5 }, session)).body.daily.map((d: { aqi_max: number }) => d.aqi_max));
    const delhi = await outlook('delhi-in');
    const reykjavik = await outlook('reykjavik-is');
    t.ok(delhi > reykjavik + 50, `Delhi ${delhi} vs Reykjavik ${reykjavik}`);
    t.ok(reykjavik <= 100);
  });

  t.test('winter smog: Beijing is worse in January than in July', async (t) => {
    const at = async (start: string) =>
      mean((await callAt(server, start, 'air_quality', { location_id: 'beijing-cn', days: 5 })).body.daily.map((d: { aqi_max: number }) => d.aqi_max));
    t.ok((await at('2024-01-10T00:00:00Z')) > (await at('2024-07-10T00:00:00Z')));
  });

  t.test('deterministic by clock', async (t) => {
    const a = await callAt(server, '2024-03-01T00:00:00Z', 'air_quality', { location_id: 'cairo-eg' });
    const b = await callAt(server, '2024-03-01T00:00:00Z', 'air_quality', { location_id: 'cairo-eg' });
    const c = await callAt(server, '2024-03-04T00:00:00Z', 'air_quality', { location_id: 'cairo-eg' });
    t.same(a.body, b.body);
    t.not(JSON.stringify(a.body.pollutants), JSON.stringify(c.body.pollutants));
  });

  t.test('the AQI follows the EPA breakpoints', async (t) => {
    t.equal(subIndex(PM25_BREAKPOINTS, 0), 0);
    t.equal(subIndex(PM25_BREAKPOINTS, 9), 50);
    t.equal(subIndex(PM25_BREAKPOINTS, 35.4), 100);
    t.equal(subIndex(PM25_BREAKPOINTS, 55.5), 151);
    t.equal(subIndex(PM25_BREAKPOINTS, 1000), 500, 'capped at 500');
    const clean = airQualityIndex({ pm2_5: 4, pm10: 10, o3: 40, no2: 10, so2: 2, co: 0.3 });
    t.equal(clean.aqi, 22);
    const ozone = airQualityIndex({ pm2_5: 4, pm10: 10, o3: 180, no2: 10, so2: 2, co: 0.3 });
    t.equal(ozone.dominant, 'o3');
    t.same([0, 51, 101, 151, 201, 301].map(aqiCategory), AQI_CATEGORIES, 'six categories');
  });

  t.test('an outlook beyond 5 days is refused (422)', async (t) => {
    await expectRejections(t, server, 'weather', 'air_quality', [
      { args: { location_id: 'delhi-in', days: 6 }, status: 422, detail: 'days must be between 1 and 5: the air-quality outlook covers at most 5 days.' },
      {
        args: { lat: -60, lon: 0 },
        status: 404,
        detail:
          'No model coverage at -60, 0: the nearest covered place is more than 100 km away. Use geocode_location or reverse_geocode to find a covered place.',
      },
    ]);
  });

  t.test('invalid arguments answer 400 naming the field', async (t) => {
    await expectInvalid(t, server, 'air_quality', [
      { args: {}, field: 'location_id' },
      { args: { location_id: 'delhi-in', days: 0 }, field: 'days' },
      { args: { location_id: 'delhi-in', units: 'metric' }, field: 'units' },
      { args: { location_id: 5 }, field: 'location_id' },
    ]);
  });
});
