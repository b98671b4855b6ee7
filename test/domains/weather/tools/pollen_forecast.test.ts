import t from 'tap';
import { pollenLevel } from '../../../../domains/weather/air.js';
import { expectRejections, startServer } from '../../../helpers/server.js';
import { callAt, expectInvalid } from '../helpers.js';

interface PollenDay {
  date: string;
  overall: string;
  dominant: string | null;
  tree: { count: number; level: string };
  grass: { count: number; level: string };
  weed: { count: number; level: string };
}

const LEVELS = ['none', 'low', 'moderate', 'high', 'very_high'];
const total = (days: PollenDay[], type: 'tree' | 'grass' | 'weed') => days.reduce((sum, d) => sum + d[type].count, 0);

t.test('pollen_forecast', async (t) => {
  const server = await startServer(t);

  t.test('daily counts and levels by type, with the overall level and the dominant type', async (t) => {
    const reply = await server.call('weather', 'pollen_forecast', { location_id: 'london-gb' });
    t.equal(reply.status, 200);
    t.match(reply.body, { location: { location_id: 'london-gb' }, unit: 'grains/m³' });
    const days = reply.body.days as PollenDay[];
    t.same(
      days.map((d) => d.date),
      ['2024-05-15', '2024-05-16', '2024-05-17'],
    );
    for (const d of days) {
      for (const type of ['tree', 'grass', 'weed'] as const) t.equal(d[type].level, pollenLevel(type, d[type].count), `${d.date} ${type}`);
      const best = Math.max(...(['tree', 'grass', 'weed'] as const).map((type) => LEVELS.indexOf(d[type].level)));
      t.equal(d.overall, LEVELS[best], 'overall is the highest level');
      if (d.dominant) t.equal(d[d.dominant as 'tree'].level, d.overall);
    }
    t.ok(total(days, 'tree') > 0, 'trees flower in May in London');
  });

  t.test('seasons follow the hemisphere', async (t) => {
    const counts = async (start: string, id: string) => (await callAt(server, start, 'pollen_forecast', { location_id: id, days: 5 })).body.days as PollenDay[];
    const londonJan = await counts('2024-01-15T12:00:00Z', 'london-gb');
    const londonApr = await counts('2024-04-20T12:00:00Z', 'london-gb');
    t.ok(total(londonApr, 'tree') > total(londonJan, 'tree') * 5, 'tree pollen in spring, hardly any in winter');
    const sydneyOct = await counts('2024-10-20T00:00:00Z', 'sydney-au');
    const sydneyApr = await counts('2024-04-20T00:00:00Z', 'sydney-au');
    t.ok(total(sydneyOct, 'tree') > total(sydneyApr, 'tree') * 5, 'southern spring is in October');
    const mcmurdo = await counts('2024-12-20T00:00:00Z', 'mcmurdo-station-aq');
    t.ok(
      mcmurdo.every((d) => d.overall === 'none' && d.dominant === null),
      'no pollen on the ice',
    );
  });

  t.test('levels by type', async (t) => {
    t.same(
      [0, 5, 20, 100, 2000].map((n) => pollenLevel('tree', n)),
      ['none', 'low', 'moderate', 'high', 'very_high'],
    );
    t.same(
      [0, 3, 10, 50, 300].map((n) => pollenLevel('grass', n)),
      ['none', 'low', 'moderate', 'high', 'very_high'],
    );
    t.same(
      [0, 5, 30, 100, 600].map((n) => pollenLevel('weed', n)),
      ['none', 'low', 'moderate', 'high', 'very_high'],
    );
  });

  t.test('more than 5 days is refused (422)', async (t) => {
    await expectRejections(t, server, 'weather', 'pollen_forecast', [
      { args: { location_id: 'london-gb', days: 6 }, status: 422, detail: 'days must be between 1 and 5: the pollen forecast covers at most 5 days.' },
    ]);
  });

  t.test('invalid arguments answer 400 naming the field', async (t) => {
    await expectInvalid(t, server, 'pollen_forecast', [
      { args: {}, field: 'location_id' },
      { args: { location_id: 'london-gb', days: 0 }, field: 'days' },
      { args: { location_id: 'london-gb', type: 'grass' }, field: 'type' },
    ]);
  });
});
