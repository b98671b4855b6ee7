import t from 'tap';
import { expectRejections, startServer } from '../../../helpers/server.js';
import { callAt, expectInvalid } from '../helpers.js';

t.test('historical_weather', async (t) => {
  const server = await startServer(t);
  const history = (args: Record<string, unknown>, session?: string) =>
    server.call('weather', 'historical_weather', { location_id: 'berlin-de', ...args }, session);

  t.test('observed daily values for past dates, oldest first', async (t) => {
    const reply = await history({ start_date: '2024-05-10', end_date: '2024-05-14' });
    t.equal(reply.status, 200);
    t.match(reply.body, { source: 'observed', location: { location_id: 'berlin-de' }, resolved: null, units: { temperature: '°C' } });
    const days = reply.body.days;
    t.same(
      days.map((d: { date: string }) => d.date),
      ['2024-05-10', '2024-05-11', '2024-05-12', '2024-05-13', '2024-05-14'],
    );
    for (const d of days) {
      t.notOk('precipitation_probability_pct' in d, 'observations have no probability');
      t.ok(d.temperature_min <= d.temperature_max && d.temperature_max < 35 && d.temperature_min > -10, `${d.date}: May in Berlin`);
      t.ok(d.sunrise < d.sunset);
    }
  });

  t.test('yesterday is the latest day; a single day works', async (t) => {
    const reply = await history({ start_date: '2024-05-14', end_date: '2024-05-14' });
    t.equal(reply.body.days.length, 1);
    const tokyo = await server.call('weather', 'historical_weather', { location_id: 'tokyo-jp', start_date: '2024-05-15', end_date: '2024-05-15' });
    t.equal(tokyo.status, 200, 'in Tokyo the 15th is already yesterday');
  });

  t.test('what was forecast is what was observed: the world is deterministic', async (t) => {
    const earlier = await callAt(server, '2024-05-01T12:00:00Z', 'weather_forecast', { location_id: 'berlin-de', days: 3 });
    const later = await history({ start_date: '2024-05-01', end_date: '2024-05-03' });
    const { precipitation_probability_pct: _p, ...forecast } = earlier.body.days[1];
    t.same(later.body.days[1], forecast, '2024-05-02 as forecast and as observed');
  });

  t.test('31 days at most, in the past, in order', async (t) => {
    const month = await history({ start_date: '2024-04-01', end_date: '2024-05-01', units: 'imperial' });
    t.equal(month.body.days.length, 31);
    t.equal(month.body.units.temperature, '°F');
    await expectRejections(t, server, 'weather', 'historical_weather', [
      {
        args: { location_id: 'berlin-de', start_date: '2024-04-01', end_date: '2024-05-02' },
        status: 422,
        detail: 'The range covers 32 days; ask for at most 31 days per call.',
      },
      { args: { location_id: 'berlin-de', start_date: '2024-05-10', end_date: '2024-05-01' }, status: 422, detail: 'start_date must not be after end_date.' },
      {
        args: { location_id: 'berlin-de', start_date: '2024-05-14', end_date: '2024-05-15' },
        status: 422,
        detail: 'end_date must be before today (2024-05-15 at Berlin): history covers past days only; use weather_forecast for today and later.',
      },
      {
        args: { location_id: 'berlin-de', start_date: '2024-06-01', end_date: '2024-06-02' },
        status: 422,
        detail: 'end_date must be before today (2024-05-15 at Berlin): history covers past days only; use weather_forecast for today and later.',
      },
      {
        args: { location_id: 'berlin-de', start_date: '1939-12-31', end_date: '1940-01-02' },
        status: 422,
        detail: 'start_date must be on or after 1940-01-01, when the archive begins.',
      },
      {
        args: { location_id: 'atlantis', start_date: '2024-05-01', end_date: '2024-05-02' },
        status: 404,
        detail: "Unknown location_id 'atlantis'. Use geocode_location to find a place's id.",
      },
    ]);
    const codes = await Promise.all([
      history({ start_date: '2024-04-01', end_date: '2024-05-02' }),
      history({ start_date: '2024-05-10', end_date: '2024-05-01' }),
      history({ start_date: '2024-05-14', end_date: '2024-05-15' }),
    ]);
    t.same(
      codes.map((r) => r.body.code),
      ['range_too_long', 'invalid_date_range', 'date_out_of_range'],
    );
  });

  t.test('the past depends on the session clock only through "today"', async (t) => {
    const a = await callAt(server, '2024-06-01T00:00:00Z', 'historical_weather', {
      location_id: 'berlin-de',
      start_date: '2024-05-10',
      end_date: '2024-05-11',
    });
    const b = await history({ start_date: '2024-05-10', end_date: '2024-05-11' });
    t.same(a.body.days, b.body.days);
  });

  t.test('invalid arguments answer 400 naming the field', async (t) => {
    await expectInvalid(t, server, 'historical_weather', [
      { args: { location_id: 'berlin-de', end_date: '2024-05-01' }, field: 'start_date' },
      { args: { location_id: 'berlin-de', start_date: '2024-05-01' }, field: 'end_date' },
      { args: { location_id: 'berlin-de', start_date: '2024/05/01', end_date: '2024-05-02' }, field: 'start_date' },
      { args: { location_id: 'berlin-de', start_date: '2024-05-01', end_date: '2024-02-31' }, field: 'end_date' },
      { args: { start_date: '2024-05-01', end_date: '2024-05-02' }, field: 'location_id' },
      { args: { location_id: 'berlin-de', start_date: '2024-05-01', end_date: '2024-05-02', days: 2 }, field: 'days' },
    ]);
  });
});
