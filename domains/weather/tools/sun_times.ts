import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { toolError } from '../../errors.js';
import { WEATHER_ERRORS } from '../errors.js';
import { locate, type WeatherDb } from '../db.js';
import { LOCATOR_TEXT, checkLocator, isoDate, locator } from '../fields.js';
import { PlaceOut, ResolvedOut, localTime, placeOut } from '../present.js';
import { sunEvents } from '../sun.js';
import { addDays, localDate } from '../../../lib/time.js';
import { codesOf } from '../../../lib/error-catalog.js';

export const FIRST_SUN_DATE = '1900-01-01';
export const LAST_SUN_DATE = '2100-12-31';

export default defineTool({
  name: 'sun_times',
  description:
    'Sunrise, sunset, solar noon, civil dawn and dusk and the length of daylight at a place on a date (default: today, the ' +
    "place's local date), computed astronomically from its coordinates. Times are local. In polar day or night, " +
    `sunrise and sunset are null and polar says which. Dates from ${FIRST_SUN_DATE} to ${LAST_SUN_DATE}. ${LOCATOR_TEXT}`,
  input: z
    .strictObject({ ...locator, date: isoDate.optional().describe('Local date, YYYY-MM-DD (default: today at the place).') })
    .superRefine((args, ctx) => checkLocator(args, ctx)),
  output: z.object({
    location: PlaceOut,
    resolved: ResolvedOut,
    date: z.string(),
    sunrise: z.string().nullable(),
    sunset: z.string().nullable(),
    solar_noon: z.string(),
    civil_dawn: z.string().nullable().describe('When the sun is 6° below the horizon in the morning.'),
    civil_dusk: z.string().nullable(),
    daylight_minutes: z.number().int().describe('From sunrise to sunset (0 in polar night, 1440 in polar day).'),
    daylight: z.string().describe("The same, as '14h 05m'."),
    daylight_change_minutes: z.number().int().describe('Difference from the day before (positive: days are lengthening).'),
    polar: z.enum(['polar_day', 'polar_night']).nullable(),
  }),
  errors: codesOf(WEATHER_ERRORS, 'location_not_found', 'no_coverage', 'date_out_of_range'),
  mutates: false,
  example: { location_id: 'new-york-us', date: '2024-05-15' },
  run(args, db: WeatherDb, ctx) {
    const { place, resolved } = locate(db, args);
    const date = args.date ?? localDate(place.timezone, ctx.now().getTime());
    if (date < FIRST_SUN_DATE || date > LAST_SUN_DATE) {
      throw toolError(WEATHER_ERRORS.date_out_of_range, `date must be from ${FIRST_SUN_DATE} to ${LAST_SUN_DATE}.`);
    }
    const sun = sunEvents(place.lat, place.lon, date);
    const before = sunEvents(place.lat, place.lon, addDays(date, -1));
    const at = (ms: number | null) => (ms === null ? null : localTime(place, ms));
    const minutes = sun.daylightMinutes;
    return {
      location: placeOut(place),
      resolved,
      date,
      sunrise: at(sun.sunrise),
      sunset: at(sun.sunset),
      solar_noon: localTime(place, sun.solarNoon),
      civil_dawn: at(sun.civilDawn),
      civil_dusk: at(sun.civilDusk),
      daylight_minutes: minutes,
      daylight: `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`,
      daylight_change_minutes: minutes - before.daylightMinutes,
      polar: sun.polar,
    };
  },
});
