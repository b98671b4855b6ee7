import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { placeSite, requirePlace, type WeatherDb } from '../db.js';
import { WEATHER_ERRORS } from '../errors.js';
import { CONDITION_TEXT, conditionsAt } from '../model.js';
import { localTime, round1 } from '../present.js';
import { HOUR, floorTo } from '../../../lib/time.js';

// What weather's specification hazards change in the contract: a convention, a decoy, lost words.

/**
 * Regions by their code only, as the NWS alerts API takes them (`/alerts/active?area=WA`): the code is
 * what geocode_location answers as region_code. A name ('Washington') is refused while the rule is on.
 */
export const regionCode = {
  rule: "Regions are sent as their code, as geocode_location gives it in region_code, e.g. 'TX' for Texas.",
  accept: (value: string) => (/^[A-Z0-9]{1,4}$/.test(value) ? value : null),
  message: 'region: invalid format',
  describe: "State, province or region code, as geocode_location gives it in region_code, e.g. 'TX'; with or without country.",
};

/**
 * Where weather_forecast says which day its first day is: without them, `days: 1` reads as well as
 * "one day ahead" as "today only" (Open-Meteo counts forecast_days from today, others from tomorrow).
 */
export const FIRST_DAY_PHRASES = [", day 1 being today (the place's local date)", ', starting today'] as const;

/** The nowcast of weather_now: refreshed every 3 hours, and it lags one step behind. */
const LEGACY_STEP_MS = 3 * HOUR;

/** A deprecated twin of weather_current: metric only, a few fields, from a 3-hourly feed that lags. */
export const weatherNow = defineTool({
  name: 'weather_now',
  description: 'Current weather for a place by its location_id: temperature, humidity, wind and a condition.',
  input: z.strictObject({ location_id: z.string().min(1).describe("Place id, e.g. 'portland-or-us'.") }),
  output: z.looseObject({}),
  errors: codesOf(WEATHER_ERRORS, 'location_not_found'),
  mutates: false,
  run({ location_id }, db: WeatherDb, ctx) {
    const place = requirePlace(db, location_id);
    const at = floorTo(ctx.now().getTime(), LEGACY_STEP_MS) - LEGACY_STEP_MS;
    const c = conditionsAt(placeSite(place), at);
    return {
      location_id: place.id,
      name: place.name,
      temperature_c: round1(c.temperature),
      humidity_pct: Math.round(c.humidity),
      wind_kmh: round1(c.wind),
      condition: CONDITION_TEXT[c.condition],
      updated_at: localTime(place, at),
      deprecated: true,
      deprecation: 'weather_now is deprecated and will be removed; its feed is refreshed every 3 hours and lags behind. Use weather_current.',
    };
  },
});
