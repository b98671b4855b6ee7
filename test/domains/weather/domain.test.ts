import { Validator } from '@seriousme/openapi-schema-validator';
import t from 'tap';
import { completeWeather, conradIndex, estimateClimate, koppenGuess, rangeFromConrad } from '../../../domains/weather/derive.js';
import { weather } from '../../../domains/weather/index.js';
import { WeatherDatabase } from '../../../domains/weather/schema.js';
import { baseFromFile } from '../../../server/core/data/base.js';
import { startServer } from '../../helpers/server.js';
import { weatherFixture } from './helpers.js';

t.test('the weather domain', async (t) => {
  const server = await startServer(t);

  t.test('its tools are all read-only and described', async (t) => {
    t.same(
      weather.tools.filter((tool) => tool.mutates).map((tool) => tool.name),
      [],
      'weather is read-only: no tool writes',
    );
    const listing = (await server.request('GET', '/weather/tools')).body.tools as {
      name: string;
      description: string;
      mutates: boolean;
      input_schema: { properties: Record<string, { description?: string }>; additionalProperties: boolean };
    }[];
    t.same(
      listing.map((tool) => tool.name),
      weather.tools.map((tool) => tool.name),
      'listed in the order of domains/weather/tools/index.ts',
    );
    for (const tool of listing) {
      t.ok(tool.description.length > 80, `${tool.name} explains itself`);
      t.equal(tool.input_schema.additionalProperties, false, `${tool.name}: unknown arguments are refused`);
      for (const [field, schema] of Object.entries(tool.input_schema.properties)) t.type(schema.description, 'string', `${tool.name}.${field} is described`);
    }
    const located = listing.filter((tool) => 'location_id' in tool.input_schema.properties);
    t.ok(
      located.every((tool) => /location_id/.test(tool.description) && 'lat' in tool.input_schema.properties),
      'the tools that locate say how',
    );
  });

  t.test('its OpenAPI document is valid', async (t) => {
    const document = (await server.request('GET', '/weather/openapi.json')).body;
    const result = await new Validator().validate(document);
    t.ok(result.valid, 'valid OpenAPI', { errors: result.errors });
    t.equal(Object.keys(document.paths).filter((path) => path.startsWith('/weather/tools/')).length, weather.tools.length, 'one operation per tool');
  });

  t.test('its policy says which provider is authoritative, and how to disambiguate', async (t) => {
    const reply = await server.request('GET', '/weather/policy');
    t.equal(reply.status, 200);
    const text = reply.text;
    for (const phrase of ['25 km', '60 minutes', 'authoritative', 'ambiguous', 'weather_current', 'get_station_observation', 'never average']) {
      t.ok(text.includes(phrase), `mentions ${phrase}`);
    }
  });

  t.test('the fixture validates; complete() fills what a hand-written file lacks', async (t) => {
    const parsed = WeatherDatabase.safeParse(weatherFixture());
    t.ok(parsed.success, 'the fixture is a valid weather database');
    const file = {
      locations: {
        'bare-xx': {
          id: 'bare-xx',
          name: 'Bare',
          alternate_names: [],
          country: 'Nowhere',
          country_code: 'XX',
          region: 'R',
          region_code: 'R',
          continent: 'Europe',
          lat: 48,
          lon: 2,
          elevation_m: 100,
          timezone: 'Europe/Paris',
          population: 10,
        },
      },
      stations: {
        'ST-00001': { ...Object.values(weatherFixture().stations)[0]!, id: 'ST-00001', location_id: 'bare-xx' },
        'ST-00002': { ...Object.values(weatherFixture().stations)[0]!, id: 'ST-00002', location_id: 'missing-xx' },
      },
    };
    const before = JSON.stringify(file);
    const done = completeWeather(WeatherDatabase.parse(file));
    t.equal(JSON.stringify(file), before, 'the input is not changed');
    t.match(done.locations['bare-xx']!.climate, { koppen: 'Cfb', warmest_month: 7 });
    t.same(Object.keys(done.stations), ['ST-00001'], 'stations of unknown places are left out');
    t.same(completeWeather(done), done, 'a complete file stays as it is');
    const base = baseFromFile(weather, file, 'test');
    t.ok(base.tables.get('locations')?.get('bare-xx'));
    t.same(WeatherDatabase.parse({ locations: {} }).stations, {}, 'stations are optional');
  });

  t.test('climate from geography', async (t) => {
    const tropics = estimateClimate({ lat: 2, elevation_m: 0 });
    const pole = estimateClimate({ lat: -85, elevation_m: 2800 });
    t.ok(tropics.base_temp_c > 25 && tropics.annual_range_c < 3);
    t.equal(pole.koppen, 'EF');
    t.equal(pole.warmest_month, 1, 'southern summer in January');
    t.equal(koppenGuess(-5, 10), 'ET');
    t.equal(koppenGuess(25, 4), 'Af');
    t.equal(koppenGuess(8, 30), 'Dfa');
    t.equal(koppenGuess(3, 20), 'Dfb');
    t.equal(koppenGuess(16, 14), 'Cfa');
    t.ok(Math.abs(rangeFromConrad(conradIndex(26, 55.75), 55.75) - 26) < 1, 'Conrad round trip');
  });
});
