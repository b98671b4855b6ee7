import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { toolError } from '../../errors.js';
import { WEATHER_ERRORS } from '../errors.js';
import { locate, placeSite, type WeatherDb } from '../db.js';
import { LOCATOR_TEXT, checkLocator, isoDate, locator, units } from '../fields.js';
import { dailySummary } from '../model.js';
import { DailyOut, PlaceOut, ResolvedOut, UnitsOut, converter, dailyOut, placeOut } from '../present.js';
import { addDays, daysBetween, localDate } from '../../../lib/time.js';
import { codesOf } from '../../../lib/error-catalog.js';

export const MAX_HISTORY_DAYS = 31;
export const ARCHIVE_START = '1940-01-01';

export default defineTool({
  name: 'historical_weather',
  description:
    'Observed daily weather for a range of past dates (at most 31 days, ending yesterday at the latest, from ' +
    `${ARCHIVE_START}): high, low and mean temperature, precipitation, snowfall, wind, humidity, cloud, UV and the ` +
    `day's condition. Dates are local to the place. For today and later use weather_forecast. ${LOCATOR_TEXT}`,
  input: z
    .strictObject({
      ...locator,
      start_date: isoDate.describe('First day, YYYY-MM-DD (local date).'),
      end_date: isoDate.describe('Last day, YYYY-MM-DD, included; before today.'),
      units,
    })
    .superRefine((args, ctx) => checkLocator(args, ctx)),
  output: z.object({
    source: z.literal('observed').describe('Quality-controlled archive of the station network, gaps filled by reanalysis.'),
    location: PlaceOut,
    resolved: ResolvedOut,
    units: UnitsOut,
    days: z.array(DailyOut.omit({ precipitation_probability_pct: true })),
    has_more: z.boolean().describe('True when days of the period were left out: call again from next_start_date.'),
    next_start_date: z.string().nullable().describe('Where the rest of the period starts; null when complete.'),
    days_returned: z.number().int(),
    days_total: z.number().int().describe('Days in the period asked for.'),
  }),
  errors: codesOf(WEATHER_ERRORS, 'location_not_found', 'no_coverage', 'invalid_date_range', 'date_out_of_range', 'range_too_long'),
  mutates: false,
  example: { location_id: 'new-york-us', start_date: '2024-05-01', end_date: '2024-05-03' },
  run(args, db: WeatherDb, ctx) {
    const { place, resolved } = locate(db, args);
    const today = localDate(place.timezone, ctx.now().getTime());
    const { start_date: start, end_date: end } = args;
    if (start > end) throw toolError(WEATHER_ERRORS.invalid_date_range, 'start_date must not be after end_date.');
    if (end >= today) {
      throw toolError(
        WEATHER_ERRORS.date_out_of_range,
        `end_date must be before today (${today} at ${place.name}): history covers past days only; use weather_forecast for today and later.`,
      );
    }
    if (start < ARCHIVE_START) throw toolError(WEATHER_ERRORS.date_out_of_range, `start_date must be on or after ${ARCHIVE_START}, when the archive begins.`);
    const count = daysBetween(start, end) + 1;
    if (count > MAX_HISTORY_DAYS) {
      throw toolError(WEATHER_ERRORS.range_too_long, `The range covers ${count} days; ask for at most ${MAX_HISTORY_DAYS} days per call.`);
    }
    const cv = converter(args.units);
    const site = placeSite(place);
    return {
      source: 'observed' as const,
      location: placeOut(place),
      resolved,
      units: cv.labels,
      days: Array.from({ length: count }, (_, i) => {
        const { precipitation_probability_pct: _chance, ...day } = dailyOut(place, dailySummary(site, place.timezone, addDays(start, i)), cv);
        return day;
      }),
      has_more: false,
      next_start_date: null,
      days_returned: count,
      days_total: count,
    };
  },
});
