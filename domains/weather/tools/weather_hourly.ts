import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { toolError } from '../../errors.js';
import { WEATHER_ERRORS } from '../errors.js';
import { locate, placeSite, type WeatherDb } from '../db.js';
import { LOCATOR_TEXT, checkLocator, locator, units } from '../fields.js';
import { conditionsAt } from '../model.js';
import { ForecastHeadOut, MeasurementsOut, converter, forecastHead, localTime, measurements } from '../present.js';
import { HOUR, startOfLocalHour } from '../../../lib/time.js';
import { codesOf } from '../../../lib/error-catalog.js';

export const MAX_HOURS = 48;

export default defineTool({
  name: 'weather_hourly',
  description:
    'Hourly forecast from the weather model for the next 1 to 48 hours, starting with the current hour: temperature, ' +
    'feels-like, humidity, precipitation and its probability, snowfall, wind, pressure, cloud, visibility, UV and a ' +
    `condition for each hour. ${LOCATOR_TEXT}`,
  input: z
    .strictObject({
      ...locator,
      hours: z.number().int().min(1).default(24).describe('Number of hours, 1 to 48 (default 24), from the current hour on.'),
      units,
    })
    .superRefine((args, ctx) => checkLocator(args, ctx)),
  output: z.object({
    ...ForecastHeadOut,
    hours: z.array(
      MeasurementsOut.extend({
        time: z.string().describe('Start of the hour, local time.'),
        precipitation_probability_pct: z.number().int(),
      }),
    ),
  }),
  errors: codesOf(WEATHER_ERRORS, 'location_not_found', 'no_coverage', 'hours_out_of_range'),
  mutates: false,
  example: { location_id: 'new-york-us' },
  run(args, db: WeatherDb, ctx) {
    if (args.hours > MAX_HOURS) {
      throw toolError(
        WEATHER_ERRORS.hours_out_of_range,
        `hours must be between 1 and ${MAX_HOURS}: the hourly forecast covers at most ${MAX_HOURS} hours; use weather_forecast for later days.`,
      );
    }
    const { place, resolved } = locate(db, args);
    const now = ctx.now().getTime();
    const first = startOfLocalHour(place.timezone, now);
    const cv = converter(args.units);
    const site = placeSite(place);
    return {
      ...forecastHead(place, resolved, now, cv),
      hours: Array.from({ length: args.hours }, (_, i) => {
        const c = conditionsAt(site, first + i * HOUR);
        return { time: localTime(place, c.at), ...measurements(c, cv), precipitation_probability_pct: Math.round(c.precipChance * 20) * 5 };
      }),
    };
  },
});
