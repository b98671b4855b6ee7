import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { toolError } from '../../errors.js';
import { WEATHER_ERRORS } from '../errors.js';
import { POLLEN_LEVELS, POLLEN_TYPES, type PollenType, pollenCounts, pollenLevel } from '../air.js';
import { locate, placeSite, type WeatherDb } from '../db.js';
import { LOCATOR_TEXT, checkLocator, locator } from '../fields.js';
import { dailySummary } from '../model.js';
import { PlaceOut, ResolvedOut, placeOut } from '../present.js';
import { addDays, localDate } from '../../../lib/time.js';
import { codesOf } from '../../../lib/error-catalog.js';

export const MAX_POLLEN_DAYS = 5;
const Level = z.enum(POLLEN_LEVELS);
const TypeOut = z.object({ count: z.number().int().describe('Grains per m³ of air, daily mean.'), level: Level });

export default defineTool({
  name: 'pollen_forecast',
  description:
    'Daily pollen forecast for 1 to 5 days from today: tree, grass and weed pollen counts (grains/m³) with their levels ' +
    '(none, low, moderate, high, very_high), the overall level and the dominant type. Seasons follow the hemisphere; ' +
    `rain and cold keep counts down, warm, dry and windy days raise them. ${LOCATOR_TEXT}`,
  input: z
    .strictObject({
      ...locator,
      days: z.number().int().min(1).default(3).describe('Number of days, 1 to 5 (default 3), starting today.'),
    })
    .superRefine((args, ctx) => checkLocator(args, ctx)),
  output: z.object({
    location: PlaceOut,
    resolved: ResolvedOut,
    unit: z.literal('grains/m³'),
    days: z.array(
      z.object({
        date: z.string(),
        overall: Level.describe('The highest level of the three types.'),
        dominant: z.enum(POLLEN_TYPES).nullable().describe('The type with the highest level; null when there is no pollen.'),
        tree: TypeOut,
        grass: TypeOut,
        weed: TypeOut,
      }),
    ),
  }),
  errors: codesOf(WEATHER_ERRORS, 'location_not_found', 'no_coverage', 'days_out_of_range'),
  mutates: false,
  example: { location_id: 'new-york-us' },
  run(args, db: WeatherDb, ctx) {
    if (args.days > MAX_POLLEN_DAYS) {
      throw toolError(
        WEATHER_ERRORS.days_out_of_range,
        `days must be between 1 and ${MAX_POLLEN_DAYS}: the pollen forecast covers at most ${MAX_POLLEN_DAYS} days.`,
      );
    }
    const { place, resolved } = locate(db, args);
    const site = placeSite(place);
    const today = localDate(place.timezone, ctx.now().getTime());
    return {
      location: placeOut(place),
      resolved,
      unit: 'grains/m³' as const,
      days: Array.from({ length: args.days }, (_, i) => {
        const date = addDays(today, i);
        const counts = pollenCounts(site, place.timezone, dailySummary(site, place.timezone, date));
        const byType = Object.fromEntries(POLLEN_TYPES.map((type) => [type, { count: counts[type], level: pollenLevel(type, counts[type]) }])) as Record<
          PollenType,
          { count: number; level: (typeof POLLEN_LEVELS)[number] }
        >;
        let dominant: PollenType | null = null;
        for (const type of POLLEN_TYPES) {
          const rank = POLLEN_LEVELS.indexOf(byType[type].level);
          if (rank > 0 && (dominant === null || rank > POLLEN_LEVELS.indexOf(byType[dominant].level))) dominant = type;
        }
        return { date, overall: dominant === null ? ('none' as const) : byType[dominant].level, dominant, ...byType };
      }),
    };
  },
});
