import t from 'tap';
import { expectRejections, startServer } from '../../../helpers/server.js';
import { expectInvalid, place } from '../helpers.js';

interface Month {
  month: number;
  name: string;
  temperature_mean: number;
  temperature_max_mean: number;
  temperature_min_mean: number;
  precipitation: number;
  precipitation_days: number;
  humidity_pct: number;
  sunshine_hours: number;
}

t.test('get_climate_normals', async (t) => {
  const server = await startServer(t);
  const normals = async (args: Record<string, unknown>) => (await server.call('weather', 'get_climate_normals', args)).body;

  t.test('twelve months with their means, annual figures and the climate class', async (t) => {
    const reply = await server.call('weather', 'get_climate_normals', { location_id: 'oslo-no' });
    t.equal(reply.status, 200);
    t.match(reply.body, { period: '1991-2020', location: { location_id: 'oslo-no' }, koppen: 'Dfb', units: { temperature: '°C', precipitation: 'mm' } });
    const months = reply.body.months as Month[];
    t.same(
      months.map((m) => m.month),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
    );
    t.equal(months[0]!.name, 'January');
    for (const m of months) {
      t.ok(m.temperature_min_mean < m.temperature_mean && m.temperature_mean < m.temperature_max_mean, `${m.name}: low < mean < high`);
      t.ok(m.precipitation > 0 && m.precipitation_days > 0 && m.precipitation_days <= 31);
      t.ok(m.humidity_pct > 30 && m.humidity_pct <= 100);
      t.ok(m.sunshine_hours >= 0 && m.sunshine_hours < 744);
    }
    t.ok(months[6]!.temperature_mean > months[0]!.temperature_mean + 15, 'Oslo: July much warmer than January');
    t.ok(months[0]!.temperature_mean < 0, 'Oslo winters freeze');
    t.ok(months[11]!.sunshine_hours < months[5]!.sunshine_hours / 3, 'little winter sun in the north');
    const annual = reply.body.annual;
    t.ok(Math.abs(annual.precipitation - place('oslo-no').climate.precip_mm) < 10, 'the months add up to the annual total');
    t.equal(annual.warmest_month, 7);
    t.equal(annual.coldest_month, 1);
  });

  t.test('seasons by hemisphere, deserts and the tropics', async (t) => {
    const sydney = await normals({ location_id: 'sydney-au' });
    t.ok(sydney.months[0].temperature_mean > sydney.months[6].temperature_mean + 6, 'Sydney: January warmer');
    t.equal(sydney.annual.warmest_month, 1);
    const singapore = (await normals({ location_id: 'singapore-sg' })).months as Month[];
    const means = singapore.map((m) => m.temperature_mean);
    t.ok(Math.max(...means) - Math.min(...means) < 3, 'Singapore: little annual range');
    const dubai = await normals({ location_id: 'dubai-ae', month: 5 });
    const oslo = await normals({ location_id: 'oslo-no', month: 5 });
    t.ok(dubai.months[0].temperature_max_mean > oslo.months[0].temperature_max_mean + 15, 'May: Dubai hotter than Oslo');
    t.ok(dubai.annual.precipitation < 150, 'Dubai is a desert');
    t.ok(dubai.months[0].humidity_pct < oslo.months[0].humidity_pct);
    const mumbai = (await normals({ location_id: 'mumbai-in' })).months as Month[];
    t.ok(mumbai[6]!.precipitation > 20 * mumbai[0]!.precipitation, 'the monsoon');
    const denver = await normals({ location_id: 'denver-us', month: 7 });
    const chicago = await normals({ location_id: 'chicago-us', month: 7 });
    t.ok(denver.months[0].temperature_mean < chicago.months[0].temperature_mean + 3, 'altitude cools Denver');
  });

  t.test('one month; imperial units', async (t) => {
    const july = await normals({ location_id: 'phoenix-us', month: 7, units: 'imperial' });
    t.equal(july.months.length, 1);
    t.match(july.months[0], { month: 7, name: 'July' });
    t.equal(july.units.temperature, '°F');
    t.ok(july.months[0].temperature_max_mean > 100, 'Phoenix July highs above 100 °F');
    const metric = await normals({ location_id: 'phoenix-us', month: 7 });
    t.ok(Math.abs(july.months[0].temperature_mean - (metric.months[0].temperature_mean * 9) / 5 - 32) < 0.2);
    t.same(july.annual.warmest_month, metric.annual.warmest_month, 'annual figures cover the whole year');
  });

  t.test('errors', async (t) => {
    await expectRejections(t, server, 'weather', 'get_climate_normals', [
      { args: { location_id: 'el-dorado' }, status: 404, detail: "Unknown location_id 'el-dorado'. Use geocode_location to find a place's id." },
    ]);
    await expectInvalid(t, server, 'get_climate_normals', [
      { args: {}, field: 'location_id' },
      { args: { location_id: 'oslo-no', month: 13 }, field: 'month' },
      { args: { location_id: 'oslo-no', month: 0 }, field: 'month' },
      { args: { location_id: 'oslo-no', month: 'July' }, field: 'month' },
      { args: { location_id: 'oslo-no', year: 2020 }, field: 'year' },
    ]);
  });
});
