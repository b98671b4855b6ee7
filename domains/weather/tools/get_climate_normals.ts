import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { locate, placeSite, type WeatherDb } from '../db.js';
import { LOCATOR_TEXT, checkLocator, locator, units } from '../fields.js';
import { monthlyNormal } from '../model.js';
import { PlaceOut, ResolvedOut, UnitsOut, converter, placeOut, round1 } from '../present.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { WEATHER_ERRORS } from '../errors.js';

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export default defineTool({
  name: 'get_climate_normals',
  description:
    'Climate normals (1991–2020 averages) month by month: mean temperature, mean daily high and low, precipitation, ' +
    'days with precipitation, humidity, sunshine hours and wind, with the Köppen climate class and annual figures. ' +
    `Give month (1–12) for a single month. Normals are what is usual, not a forecast. ${LOCATOR_TEXT}`,
  input: z
    .strictObject({
      ...locator,
      month: z.number().int().min(1).max(12).optional().describe('Only this month, 1 (January) to 12 (December); all twelve when absent.'),
      units,
    })
    .superRefine((args, ctx) => checkLocator(args, ctx)),
  output: z.object({
    period: z.literal('1991-2020'),
    location: PlaceOut,
    resolved: ResolvedOut,
    koppen: z.string().describe("Köppen–Geiger climate class, e.g. 'Cfb' (temperate oceanic)."),
    units: UnitsOut,
    months: z.array(
      z.object({
        month: z.number().int(),
        name: z.string(),
        temperature_mean: z.number(),
        temperature_max_mean: z.number().describe('Mean daily high.'),
        temperature_min_mean: z.number().describe('Mean daily low.'),
        precipitation: z.number().describe('Monthly total.'),
        precipitation_days: z.number().describe('Days with at least 1 mm.'),
        humidity_pct: z.number().int(),
        sunshine_hours: z.number().int(),
        wind_speed_mean: z.number(),
      }),
    ),
    annual: z.object({
      temperature_mean: z.number(),
      precipitation: z.number(),
      warmest_month: z.number().int(),
      coldest_month: z.number().int(),
      wettest_month: z.number().int(),
    }),
  }),
  errors: codesOf(WEATHER_ERRORS, 'location_not_found', 'no_coverage'),
  mutates: false,
  example: { location_id: 'new-york-us' },
  run(args, db: WeatherDb) {
    const { place, resolved } = locate(db, args);
    const site = placeSite(place);
    const cv = converter(args.units);
    const all = MONTH_NAMES.map((_, i) => monthlyNormal(site, i + 1));
    const pick = (better: (a: number, b: number) => boolean, value: (m: (typeof all)[number]) => number) =>
      all.reduce((best, m) => (better(value(m), value(best)) ? m : best)).month;
    const shown = args.month === undefined ? all : [all[args.month - 1]!];
    return {
      period: '1991-2020' as const,
      location: placeOut(place),
      resolved,
      koppen: place.climate.koppen,
      units: cv.labels,
      months: shown.map((m) => ({
        month: m.month,
        name: MONTH_NAMES[m.month - 1]!,
        temperature_mean: cv.temperature(m.tempMean),
        temperature_max_mean: cv.temperature(m.tempMaxMean),
        temperature_min_mean: cv.temperature(m.tempMinMean),
        precipitation: cv.precipitation(m.precip),
        precipitation_days: round1(m.precipDays),
        humidity_pct: Math.round(m.humidity),
        sunshine_hours: Math.round(m.sunshineHours),
        wind_speed_mean: cv.speed(m.windMean),
      })),
      annual: {
        temperature_mean: cv.temperature(all.reduce((sum, m) => sum + m.tempMean, 0) / 12),
        precipitation: cv.precipitation(all.reduce((sum, m) => sum + m.precip, 0)),
        warmest_month: pick(
          (a, b) => a > b,
          (m) => m.tempMean,
        ),
        coldest_month: pick(
          (a, b) => a < b,
          (m) => m.tempMean,
        ),
        wettest_month: pick(
          (a, b) => a > b,
          (m) => m.precip,
        ),
      },
    };
  },
});
