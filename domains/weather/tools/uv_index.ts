import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { toolError } from '../../errors.js';
import { WEATHER_ERRORS } from '../errors.js';
import { locate, placeSite, type WeatherDb } from '../db.js';
import { LOCATOR_TEXT, checkLocator, locator } from '../fields.js';
import { conditionsAt, dailySummary } from '../model.js';
import { PlaceOut, ResolvedOut, localTime, placeOut, round1 } from '../present.js';
import { solarElevation } from '../sun.js';
import { HOUR, MINUTE, addDays, floorTo, hoursOfLocalDay, localDate, startOfLocalHour } from '../../../lib/time.js';
import { codesOf } from '../../../lib/error-catalog.js';

export const MAX_UV_DAYS = 7;
const RISKS = ['low', 'moderate', 'high', 'very_high', 'extreme'] as const;

/** WHO exposure categories of the UV index. */
export function uvRisk(uv: number): (typeof RISKS)[number] {
  const index = Math.round(uv);
  if (index <= 2) return 'low';
  if (index <= 5) return 'moderate';
  if (index <= 7) return 'high';
  return index <= 10 ? 'very_high' : 'extreme';
}

const ADVICE: Record<(typeof RISKS)[number], string> = {
  low: 'No protection needed for most people.',
  moderate: 'Seek shade around midday; wear a hat and sunscreen (SPF 30+).',
  high: 'Reduce time in the sun between late morning and mid-afternoon; shade, hat, sunglasses and SPF 30+ sunscreen.',
  very_high: 'Avoid the midday sun; unprotected skin burns quickly. Shade, covering clothing, hat, sunglasses and SPF 50+.',
  extreme: 'Stay out of the midday sun: unprotected skin can burn in minutes. Take every precaution.',
};

export default defineTool({
  name: 'uv_index',
  description:
    'UV index (WHO scale, 0 to 11+) from the weather model: now, hour by hour for the next 12 hours, the hours of ' +
    'today when protection is needed (index 3 or more), and the daily maximum for 1 to 7 days from today. Cloud lowers ' +
    `the index; altitude raises it. ${LOCATOR_TEXT}`,
  input: z
    .strictObject({
      ...locator,
      days: z.number().int().min(1).default(3).describe('Days of daily maxima, 1 to 7 (default 3), starting today.'),
    })
    .superRefine((args, ctx) => checkLocator(args, ctx)),
  output: z.object({
    location: PlaceOut,
    resolved: ResolvedOut,
    current: z.object({
      time: z.string().describe('Local time of the value (15-minute steps).'),
      uv_index: z.number(),
      risk: z.enum(RISKS),
      sun_elevation_deg: z.number().describe('Height of the sun above the horizon.'),
      advice: z.string(),
    }),
    protection_window: z
      .object({ from: z.string(), to: z.string() })
      .nullable()
      .describe('Today, local time: from the first to the end of the last hour with an index of 3 or more; null when none.'),
    hourly: z.array(z.object({ time: z.string(), uv_index: z.number(), risk: z.enum(RISKS) })),
    daily: z.array(z.object({ date: z.string(), uv_index_max: z.number(), risk: z.enum(RISKS) })),
  }),
  errors: codesOf(WEATHER_ERRORS, 'location_not_found', 'no_coverage', 'days_out_of_range'),
  mutates: false,
  example: { location_id: 'new-york-us' },
  run(args, db: WeatherDb, ctx) {
    if (args.days > MAX_UV_DAYS) {
      throw toolError(WEATHER_ERRORS.days_out_of_range, `days must be between 1 and ${MAX_UV_DAYS}: the UV forecast covers at most ${MAX_UV_DAYS} days.`);
    }
    const { place, resolved } = locate(db, args);
    const site = placeSite(place);
    const now = ctx.now().getTime();
    const at = floorTo(now, 15 * MINUTE);
    const current = conditionsAt(site, at);
    const today = localDate(place.timezone, now);
    const protectedHours = hoursOfLocalDay(place.timezone, today).filter((hour) => round1(conditionsAt(site, hour).uv) >= 3);
    const first = startOfLocalHour(place.timezone, now);
    const uvNow = round1(current.uv);
    return {
      location: placeOut(place),
      resolved,
      current: {
        time: localTime(place, at),
        uv_index: uvNow,
        risk: uvRisk(uvNow),
        sun_elevation_deg: round1(solarElevation(place.lat, place.lon, at)),
        advice: ADVICE[uvRisk(uvNow)],
      },
      protection_window: protectedHours.length > 0 ? { from: localTime(place, protectedHours[0]!), to: localTime(place, protectedHours.at(-1)! + HOUR) } : null,
      hourly: Array.from({ length: 12 }, (_, i) => {
        const uv = round1(conditionsAt(site, first + i * HOUR).uv);
        return { time: localTime(place, first + i * HOUR), uv_index: uv, risk: uvRisk(uv) };
      }),
      daily: Array.from({ length: args.days }, (_, i) => {
        const uv = round1(dailySummary(site, place.timezone, addDays(today, i)).uvMax);
        return { date: addDays(today, i), uv_index_max: uv, risk: uvRisk(uv) };
      }),
    };
  },
});
