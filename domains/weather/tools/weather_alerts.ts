import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { toolError } from '../../errors.js';
import { WEATHER_ERRORS } from '../errors.js';
import { ALERT_KINDS, SEVERITIES, alertsAt } from '../alerts.js';
import { asPlace, locate, type WeatherDb } from '../db.js';
import { checkLocator, locator, units } from '../fields.js';
import { matchesCountry, matchesRegion } from '../geocode.js';
import { UnitsOut, converter } from '../present.js';
import type { Place } from '../schema.js';
import { codesOf } from '../../../lib/error-catalog.js';

const AlertOut = z.object({
  id: z.string(),
  kind: z.enum(ALERT_KINDS),
  event: z.string().describe("The alert's name, e.g. 'Heat Advisory'."),
  severity: z.enum(SEVERITIES),
  status: z.enum(['active', 'upcoming']).describe('active: in effect now; upcoming: begins within 48 hours.'),
  issued_at: z.string().describe('When the alert was issued, local time at the place.'),
  onset: z.string().describe('Local time at the place.'),
  expires: z.string(),
  headline: z.string(),
  description: z.string(),
  location_id: z.string(),
  area: z.string(),
});

export default defineTool({
  name: 'weather_alerts',
  description:
    'Weather alerts in effect now or beginning within the next 48 hours — heat, extreme cold, wind, severe ' +
    'thunderstorms, heavy rain, winter storms and poor air quality — issued from the model data. For one place ' +
    '(location_id, or lat and lon for the nearest place within 100 km), or for every place of a region: country ' +
    "(ISO code or name) with an optional region (state or province code or name, e.g. 'TX'). No alert means none in effect.",
  input: z
    .strictObject({
      ...locator,
      country: z.string().min(1).optional().describe("All places of this country (ISO code 'US' or name), instead of a location."),
      region: z.string().min(1).optional().describe("With or without country: all places of this state/province/region (code 'TX' or name)."),
      units,
    })
    .superRefine((args, ctx) => checkLocator(args, ctx, ['country', 'region'])),
  output: z.object({
    scope: z.string().describe('What was covered, e.g. "Texas, United States (2 places)".'),
    location_ids: z.array(z.string()).describe('The places covered.'),
    units: UnitsOut,
    as_of: z.string().describe('When the list was compiled (UTC).'),
    count: z.number().int(),
    alerts: z.array(AlertOut),
  }),
  errors: codesOf(WEATHER_ERRORS, 'location_not_found', 'no_coverage', 'region_not_found'),
  mutates: false,
  example: { location_id: 'new-york-us' },
  run(args, db: WeatherDb, ctx) {
    let places: Place[];
    let scope: string;
    if (args.country !== undefined || args.region !== undefined) {
      places = [...db.locations.values()]
        .map(asPlace)
        .filter((p) => (args.country === undefined || matchesCountry(p, args.country)) && (args.region === undefined || matchesRegion(p, args.region)));
      const wanted = [args.region, args.country].filter((s) => s !== undefined).join(', ');
      if (places.length === 0)
        throw toolError(WEATHER_ERRORS.region_not_found, `No known place in '${wanted}'. Give a country ISO code or name, and a region code or name.`);
      const first = places[0]!;
      const regionName = args.region !== undefined ? `${first.region}, ` : '';
      scope = `${regionName}${args.country !== undefined ? first.country : 'all countries'} (${places.length} place${places.length > 1 ? 's' : ''})`;
    } else {
      const { place } = locate(db, args);
      places = [place];
      scope = `${place.name}, ${place.region}, ${place.country}`;
    }
    const now = ctx.now().getTime();
    const cv = converter(args.units);
    const alerts = alertsAt(places, now, cv);
    return { scope, location_ids: places.map((p) => p.id), units: cv.labels, as_of: new Date(now).toISOString(), count: alerts.length, alerts };
  },
});
