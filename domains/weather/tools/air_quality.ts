import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { toolError } from '../../errors.js';
import { WEATHER_ERRORS } from '../errors.js';
import { AQI_ADVICE, AQI_CATEGORIES, type PollutantName, aqiCategory, airQualityIndex, pollutantsAt } from '../air.js';
import { locate, placeSite, type WeatherDb } from '../db.js';
import { LOCATOR_TEXT, checkLocator, locator } from '../fields.js';
import { conditionsAt } from '../model.js';
import { PlaceOut, ResolvedOut, localTime, placeOut, round1, round2 } from '../present.js';
import { addDays, hoursOfLocalDay, localDate, startOfLocalHour } from '../../../lib/time.js';
import { codesOf } from '../../../lib/error-catalog.js';

export const MAX_AIR_DAYS = 5;
const POLLUTANTS = ['pm2_5', 'pm10', 'o3', 'no2', 'so2', 'co'] as const;
const PollutantOut = z.object({ concentration: z.number(), unit: z.enum(['µg/m³', 'mg/m³']), aqi: z.number().int().describe('Sub-index of this pollutant.') });

export default defineTool({
  name: 'air_quality',
  description:
    'Air quality now and its daily outlook: the US EPA air quality index (0–500) with its category and health advice, ' +
    'the pollutant that drives it, and the concentrations of PM2.5, PM10, ozone, NO₂, SO₂ (µg/m³) and CO (mg/m³). ' +
    `The outlook gives each day's highest index for 1 to 5 days from today. ${LOCATOR_TEXT}`,
  input: z
    .strictObject({
      ...locator,
      days: z.number().int().min(1).default(3).describe('Days of outlook, 1 to 5 (default 3), starting today.'),
    })
    .superRefine((args, ctx) => checkLocator(args, ctx)),
  output: z.object({
    location: PlaceOut,
    resolved: ResolvedOut,
    valid_at: z.string().describe('Time of the current values (local time, hourly steps).'),
    standard: z.literal('US EPA AQI'),
    summary: z
      .object({
        aqi: z.number().int(),
        category: z.enum(AQI_CATEGORIES),
        dominant_pollutant: z.enum(POLLUTANTS),
        averaging_hours: z.number().int().describe('The hours of concentrations it averages.'),
        period_end: z.string().describe('The end of the averaging period (local time).'),
      })
      .describe("The provider's headline index, over its averaging period."),
    aqi: z.number().int(),
    category: z.enum(AQI_CATEGORIES),
    dominant_pollutant: z.enum(POLLUTANTS),
    health_advice: z.string(),
    pollutants: z.object(Object.fromEntries(POLLUTANTS.map((p) => [p, PollutantOut])) as Record<PollutantName, typeof PollutantOut>),
    daily: z.array(z.object({ date: z.string(), aqi_max: z.number().int(), category: z.enum(AQI_CATEGORIES), dominant_pollutant: z.enum(POLLUTANTS) })),
  }),
  errors: codesOf(WEATHER_ERRORS, 'location_not_found', 'no_coverage', 'days_out_of_range'),
  mutates: false,
  example: { location_id: 'new-york-us' },
  run(args, db: WeatherDb, ctx) {
    if (args.days > MAX_AIR_DAYS) {
      throw toolError(
        WEATHER_ERRORS.days_out_of_range,
        `days must be between 1 and ${MAX_AIR_DAYS}: the air-quality outlook covers at most ${MAX_AIR_DAYS} days.`,
      );
    }
    const { place, resolved } = locate(db, args);
    const site = placeSite(place);
    const now = ctx.now().getTime();
    const at = startOfLocalHour(place.timezone, now);
    const concentrations = pollutantsAt(site, conditionsAt(site, at));
    const index = airQualityIndex(concentrations);
    const today = localDate(place.timezone, now);
    const daily = Array.from({ length: args.days }, (_, i) => {
      const date = addDays(today, i);
      let worst = { aqi: -1, dominant: 'pm2_5' as PollutantName };
      for (const hour of hoursOfLocalDay(place.timezone, date)) {
        const hourly = airQualityIndex(pollutantsAt(site, conditionsAt(site, hour)));
        if (hourly.aqi > worst.aqi) worst = hourly;
      }
      return { date, aqi_max: worst.aqi, category: aqiCategory(worst.aqi), dominant_pollutant: worst.dominant };
    });
    const category = aqiCategory(index.aqi);
    return {
      location: placeOut(place),
      resolved,
      valid_at: localTime(place, at),
      standard: 'US EPA AQI' as const,
      summary: { aqi: index.aqi, category, dominant_pollutant: index.dominant, averaging_hours: 1, period_end: localTime(place, at) },
      aqi: index.aqi,
      category,
      dominant_pollutant: index.dominant,
      health_advice: AQI_ADVICE[category],
      pollutants: Object.fromEntries(
        POLLUTANTS.map((p) => [
          p,
          { concentration: p === 'co' ? round2(concentrations[p]) : round1(concentrations[p]), unit: p === 'co' ? 'mg/m³' : 'µg/m³', aqi: index.subIndices[p] },
        ]),
      ) as Record<PollutantName, z.infer<typeof PollutantOut>>,
      daily,
    };
  },
});
