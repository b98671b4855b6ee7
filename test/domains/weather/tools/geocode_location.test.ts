import t from 'tap';
import { expectRejections, startServer } from '../../../helpers/server.js';
import { expectInvalid } from '../helpers.js';

t.test('geocode_location', async (t) => {
  const server = await startServer(t);
  const geocode = (args: Record<string, unknown>) => server.call('weather', 'geocode_location', args);

  t.test('a name gives the place with its id, coordinates, region and time zone', async (t) => {
    const reply = await geocode({ query: 'Tokyo' });
    t.equal(reply.status, 200);
    t.match(reply.body, { query: 'Tokyo', ambiguous: false, count: 1, disambiguation: null });
    t.match(reply.body.matches[0], {
      location_id: 'tokyo-jp',
      name: 'Tokyo',
      matched_name: 'Tokyo',
      match: 'name',
      region: 'Tokyo',
      country: 'Japan',
      country_code: 'JP',
      continent: 'Asia',
      lat: 35.6762,
      lon: 139.6503,
      timezone: 'Asia/Tokyo',
    });
    t.ok(reply.body.matches[0].population > 1_000_000);
  });

  t.test('common alternate names, regardless of case and accents', async (t) => {
    const cases: [string, string, string, string][] = [
      ['Bombay', 'mumbai-in', 'Bombay', 'alternate_name'],
      ['peking', 'beijing-cn', 'Peking', 'alternate_name'],
      ['Koln', 'cologne-de', 'Köln', 'alternate_name'],
      ['NYC', 'new-york-us', 'NYC', 'alternate_name'],
      ['Saigon', 'ho-chi-minh-city-vn', 'Saigon', 'alternate_name'],
      ['Sao Paulo', 'sao-paulo-br', 'São Paulo', 'name'],
      ['  REYKJAVIK ', 'reykjavik-is', 'Reykjavík', 'name'],
      ['Kiev', 'kyiv-ua', 'Kiev', 'alternate_name'],
      ['Calcutta', 'kolkata-in', 'Calcutta', 'alternate_name'],
    ];
    for (const [query, id, matched, match] of cases) {
      const reply = await geocode({ query });
      t.equal(reply.status, 200, query);
      t.equal(reply.body.ambiguous, false, `${query} is not ambiguous`);
      t.match(reply.body.matches[0], { location_id: id, matched_name: matched, match }, query);
    }
  });

  t.test('a shared name is ambiguous: every candidate, largest first, and how to choose', async (t) => {
    const reply = await geocode({ query: 'Springfield' });
    t.equal(reply.status, 200);
    t.equal(reply.body.ambiguous, true);
    t.equal(reply.body.count, 4);
    t.same(
      reply.body.matches.map((m: { region_code: string }) => m.region_code),
      ['MO', 'MA', 'IL', 'OH'],
      'by population',
    );
    t.ok(reply.body.matches.every((m: { country_code: string }) => m.country_code === 'US'));
    t.match(reply.body.disambiguation, /4 places match 'Springfield'/);
    t.match(reply.body.disambiguation, /Springfield, Illinois, United States \(springfield-il-us\)/);
    t.match(reply.body.disambiguation, /region/);

    const two = await geocode({ query: 'Springfield', limit: 2 });
    t.equal(two.body.matches.length, 2, 'limit caps the list');
    t.equal(two.body.count, 4, 'count is before the limit');
    t.equal(two.body.ambiguous, true);
  });

  t.test('region and country choose between places of the same name', async (t) => {
    const one = async (args: Record<string, unknown>, id: string) => {
      const reply = await geocode(args);
      t.equal(reply.status, 200, JSON.stringify(args));
      t.equal(reply.body.ambiguous, false, JSON.stringify(args));
      t.same(
        reply.body.matches.map((m: { location_id: string }) => m.location_id),
        [id],
        JSON.stringify(args),
      );
    };
    await one({ query: 'Springfield', region: 'MO' }, 'springfield-mo-us');
    await one({ query: 'Springfield', region: 'illinois' }, 'springfield-il-us');
    await one({ query: 'Springfield', country: 'US', region: 'Massachusetts' }, 'springfield-ma-us');
    await one({ query: 'Springfield, OH' }, 'springfield-oh-us');
    await one({ query: 'Springfield, Missouri, USA' }, 'springfield-mo-us');
    await one({ query: 'Portland', region: 'ME' }, 'portland-me-us');
    await one({ query: 'Portland, Oregon' }, 'portland-or-us');
    await one({ query: 'San Jose', country: 'Costa Rica' }, 'san-jose-cr');
    await one({ query: 'San José', country: 'us' }, 'san-jose-us');
    await one({ query: 'London', country: 'CA' }, 'london-ca');
    await one({ query: 'London, UK' }, 'london-gb');
    await one({ query: 'Paris, France' }, 'paris-fr');
    await one({ query: 'Paris', region: 'TX' }, 'paris-us');
  });

  t.test('other shared names are ambiguous too', async (t) => {
    for (const [query, ids] of [
      ['Portland', ['portland-or-us', 'portland-me-us']],
      ['San Jose', ['san-jose-us', 'san-jose-cr']],
      ['London', ['london-gb', 'london-ca']],
      ['Paris', ['paris-fr', 'paris-us']],
    ] as const) {
      const reply = await geocode({ query });
      t.equal(reply.body.ambiguous, true, query);
      t.same(
        reply.body.matches.map((m: { location_id: string }) => m.location_id),
        ids,
        query,
      );
    }
  });

  t.test('a beginning of a name finds the places it starts', async (t) => {
    const reply = await geocode({ query: 'Johannes' });
    t.equal(reply.status, 200);
    t.match(reply.body.matches[0], { location_id: 'johannesburg-za', match: 'prefix' });
    const rio = await geocode({ query: 'Rio, Brazil' });
    t.match(rio.body.matches[0], { location_id: 'rio-de-janeiro-br', match: 'alternate_name' });
  });

  t.test('unknown names and impossible filters are 404', async (t) => {
    await expectRejections(t, server, 'weather', 'geocode_location', [
      { args: { query: 'Atlantis' }, status: 404, detail: "No place matches 'Atlantis'." },
      { args: { query: 'Springfeld' }, status: 404, detail: "No place matches 'Springfeld'. Did you mean 'Springfield'?" },
      {
        args: { query: 'Springfield', region: 'TX' },
        status: 404,
        detail:
          "No place named 'Springfield' with region 'TX'. Places with that name: Springfield, Missouri, United States (springfield-mo-us); " +
          'Springfield, Massachusetts, United States (springfield-ma-us); Springfield, Illinois, United States (springfield-il-us); ' +
          'Springfield, Ohio, United States (springfield-oh-us).',
      },
      {
        args: { query: 'Portland', country: 'Canada', region: 'ON' },
        status: 404,
        detail:
          "No place named 'Portland' with country 'Canada' and region 'ON'. Places with that name: Portland, Oregon, United States " +
          '(portland-or-us); Portland, Maine, United States (portland-me-us).',
      },
    ]);
    const reply = await geocode({ query: 'Atlantis' });
    t.equal(reply.body.code, 'no_match');
  });

  t.test('invalid arguments answer 400 naming the field', async (t) => {
    await expectInvalid(t, server, 'geocode_location', [
      { args: {}, field: 'query' },
      { args: { query: '' }, field: 'query' },
      { args: { query: 42 }, field: 'query' },
      { args: { query: 'Oslo', limit: 0 }, field: 'limit' },
      { args: { query: 'Oslo', limit: 21 }, field: 'limit' },
      { args: { query: 'Oslo', country: '' }, field: 'country' },
      { args: { query: 'Oslo', region: 7 }, field: 'region' },
      { args: { query: 'Oslo', name: 'Oslo' }, field: 'name' },
    ]);
    t.same((await server.request('GET', '/sessions/default/diff')).body.weather, [], 'read-only');
  });
});
