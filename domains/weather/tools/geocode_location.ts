import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { toolError } from '../../errors.js';
import { WEATHER_ERRORS } from '../errors.js';
import { foldForMatch, nearMatches } from '../../../lib/text.js';
import { asPlace, type WeatherDb } from '../db.js';
import { findPlaces, matchesCountry, matchesRegion, type Match } from '../geocode.js';
import { CONTINENTS } from '../schema.js';
import { codesOf } from '../../../lib/error-catalog.js';

const MatchOut = z.object({
  location_id: z.string().describe('The id the other weather tools take.'),
  name: z.string(),
  matched_name: z.string().describe('The name or alternate name the query matched.'),
  match: z.enum(['name', 'alternate_name', 'prefix']),
  region: z.string(),
  region_code: z.string(),
  country: z.string(),
  country_code: z.string(),
  continent: z.enum(CONTINENTS),
  lat: z.number(),
  lon: z.number(),
  elevation_m: z.number(),
  timezone: z.string(),
  population: z.number().int(),
});

const MATCH_KIND = { 3: 'name', 2: 'alternate_name', 1: 'prefix' } as const;

const label = (m: Match) => `${m.place.name}, ${m.place.region}, ${m.place.country} (${m.place.id})`;

export default defineTool({
  name: 'geocode_location',
  description:
    "Find places by name: a city's name or a name people also use ('Bombay', 'NYC', 'Köln'), regardless of case and " +
    "accents, optionally qualified after a comma ('Portland, OR', 'Paris, France'). Returns the matches with their " +
    'location_id, coordinates, region, country and time zone, largest first. When several places share the name ' +
    '(there are several Springfields), ambiguous is true: do not pick one yourself — ask which is meant, then call ' +
    'again with country and/or region, or use the location_id of the right match.',
  input: z.strictObject({
    query: z.string().min(1).max(200).describe("Place name, e.g. 'Springfield', 'San Jose, CR' or 'Peking'."),
    country: z.string().min(1).optional().describe("Only places in this country: ISO code ('US') or name ('United States')."),
    region: z.string().min(1).optional().describe("Only places in this state, province or region: code ('MO') or name ('Missouri')."),
    limit: z.number().int().min(1).max(20).default(5).describe('How many matches to return at most, 1 to 20 (default 5).'),
  }),
  output: z.object({
    query: z.string(),
    ambiguous: z.boolean().describe('True when more than one place matches: choose with country/region or a location_id.'),
    count: z.number().int().describe('Number of matching places (before limit).'),
    matches: z.array(MatchOut),
    disambiguation: z.string().nullable().describe('When ambiguous: how to choose between the matches.'),
  }),
  errors: codesOf(WEATHER_ERRORS, 'no_match'),
  mutates: false,
  example: { query: 'Portland' },
  run({ query, country, region, limit }, db: WeatherDb) {
    const found = findPlaces(db, query);
    const matches = found.matches.filter(
      (m) => (country === undefined || matchesCountry(m.place, country)) && (region === undefined || matchesRegion(m.place, region)),
    );
    if (matches.length === 0) {
      if (found.matches.length > 0) {
        const filters = [country !== undefined ? `country '${country}'` : '', region !== undefined ? `region '${region}'` : ''].filter(Boolean).join(' and ');
        throw toolError(
          WEATHER_ERRORS.no_match,
          `No place named '${found.name}' with ${filters}. Places with that name: ${found.matches.map(label).join('; ')}.`,
        );
      }
      const names = [...db.locations.values()].flatMap((l) => [l.name, ...l.alternate_names]).filter((n) => n.length >= 4);
      const suggestions = nearMatches(foldForMatch(found.name), new Set(names.map(foldForMatch)));
      const original = suggestions.map((s) => names.find((n) => foldForMatch(n) === s) ?? s);
      const hint = original.length > 0 ? ` Did you mean ${original.map((s) => `'${s}'`).join(', ')}?` : '';
      throw toolError(WEATHER_ERRORS.no_match, `No place matches '${query}'.${hint}`);
    }
    const ambiguous = matches.length > 1;
    return {
      query,
      ambiguous,
      count: matches.length,
      matches: matches.slice(0, limit).map((m) => {
        const p = asPlace(m.place);
        return {
          location_id: p.id,
          name: p.name,
          matched_name: m.matched,
          match: MATCH_KIND[m.score as 1 | 2 | 3],
          region: p.region,
          region_code: p.region_code,
          country: p.country,
          country_code: p.country_code,
          continent: p.continent,
          lat: p.lat,
          lon: p.lon,
          elevation_m: p.elevation_m,
          timezone: p.timezone,
          population: p.population,
        };
      }),
      disambiguation: ambiguous
        ? `${matches.length} places match '${query}': ${matches.map(label).join('; ')}. Ask which one is meant; then call again ` +
          "with region (e.g. its region_code) and/or country, or use that place's location_id directly."
        : null,
    };
  },
});
