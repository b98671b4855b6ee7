import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { locate, placeSite, type WeatherDb } from '../db.js';
import { LOCATOR_TEXT, checkLocator, locator, units } from '../fields.js';
import { conditionsAt } from '../model.js';
import { MeasurementsOut, PlaceOut, ResolvedOut, UnitsOut, converter, localTime, measurements, placeOut } from '../present.js';
import { MINUTE, floorTo } from '../../../lib/time.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { WEATHER_ERRORS } from '../errors.js';

/** The model's nowcast is issued every 15 minutes. */
export const NOWCAST_STEP_MS = 15 * MINUTE;

export default defineTool({
  name: 'weather_current',
  description:
    "Current conditions from the weather model (the model provider's nowcast, updated every 15 minutes): temperature, " +
    'feels-like, humidity, wind, pressure, cloud, precipitation, visibility, UV and a condition. ' +
    `${LOCATOR_TEXT} This is a model estimate, not a measurement: for observed conditions see list_weather_stations and get_station_observation.`,
  input: z.strictObject({ ...locator, units }).superRefine((args, ctx) => checkLocator(args, ctx)),
  output: z.object({
    provider: z.literal('model'),
    location: PlaceOut,
    resolved: ResolvedOut,
    valid_at: z.string().describe('The nowcast time step these values are for (local time).'),
    local_time: z.string().describe('Current local time at the place.'),
    units: UnitsOut,
    current: MeasurementsOut,
  }),
  errors: codesOf(WEATHER_ERRORS, 'location_not_found', 'no_coverage'),
  mutates: false,
  example: { location_id: 'new-york-us' },
  run(args, db: WeatherDb, ctx) {
    const { place, resolved } = locate(db, args);
    const now = ctx.now().getTime();
    const validAt = floorTo(now, NOWCAST_STEP_MS);
    const cv = converter(args.units);
    return {
      provider: 'model' as const,
      location: placeOut(place),
      resolved,
      valid_at: localTime(place, validAt),
      local_time: localTime(place, now),
      units: cv.labels,
      current: measurements(conditionsAt(placeSite(place), validAt), cv),
    };
  },
});
