import { z } from 'zod';
import { CONDITIONS, CONDITION_TEXT, type Conditions, type DailySummary } from './model.js';
import type { Place } from './schema.js';
import { sunEvents } from './sun.js';
import { formatLocal } from '../../lib/time.js';

// Units and the shapes every weather tool answers with. The model works in metric units;
// values are converted and rounded only here, at the edge.

export const UNIT_SYSTEMS = ['metric', 'imperial'] as const;
export type UnitSystem = (typeof UNIT_SYSTEMS)[number];

export const UNIT_LABELS = {
  metric: { system: 'metric', temperature: '°C', wind_speed: 'km/h', precipitation: 'mm', snowfall: 'cm', pressure: 'hPa', visibility: 'km' },
  imperial: { system: 'imperial', temperature: '°F', wind_speed: 'mph', precipitation: 'in', snowfall: 'in', pressure: 'inHg', visibility: 'mi' },
} as const;

export const UnitsOut = z
  .object({
    system: z.enum(UNIT_SYSTEMS),
    temperature: z.enum(['°C', '°F']),
    wind_speed: z.enum(['km/h', 'mph']),
    precipitation: z.enum(['mm', 'in']),
    snowfall: z.enum(['cm', 'in']),
    pressure: z.enum(['hPa', 'inHg']),
    visibility: z.enum(['km', 'mi']),
  })
  .describe('The unit of every measurement in this answer (fields ending in _km, _m, _pct or _deg carry their unit in their name).');

const KM_PER_MILE = 1.609344;

export const roundTo = (value: number, places: number): number => {
  const factor = 10 ** places;
  const rounded = Math.round(value * factor) / factor;
  return Object.is(rounded, -0) ? 0 : rounded;
};

/** One kind of measurement: metric to imperial and back, and the decimals shown in each system. */
export interface UnitConversion {
  toImperial(metric: number): number;
  toMetric(imperial: number): number;
  places: { imperial: number; metric: number };
}

/** Imperial = metric / `divisor` (km per mile, mm per inch). */
const per = (divisor: number, places: UnitConversion['places']): UnitConversion => ({
  toImperial: (metric) => metric / divisor,
  toMetric: (imperial) => imperial * divisor,
  places,
});

export const CONVERSIONS = {
  temperature: { toImperial: (c: number) => (c * 9) / 5 + 32, toMetric: (f: number) => ((f - 32) * 5) / 9, places: { imperial: 1, metric: 1 } },
  speed: per(KM_PER_MILE, { imperial: 1, metric: 1 }),
  precipitation: per(25.4, { imperial: 2, metric: 1 }),
  snowfall: per(2.54, { imperial: 1, metric: 1 }),
  pressure: { toImperial: (hpa: number) => hpa * 0.0295299830714, toMetric: (inhg: number) => inhg / 0.0295299830714, places: { imperial: 2, metric: 1 } },
  visibility: per(KM_PER_MILE, { imperial: 1, metric: 1 }),
} satisfies Record<string, UnitConversion>;

/** A metric value in the given system, rounded for display. */
export const inSystem = (conversion: UnitConversion, metric: number, imperial: boolean): number =>
  imperial ? roundTo(conversion.toImperial(metric), conversion.places.imperial) : roundTo(metric, conversion.places.metric);

/** Converters from the model's metric values to the requested system, rounded for display. */
export function converter(units: UnitSystem) {
  const imperial = units === 'imperial';
  const to = (conversion: UnitConversion) => (metric: number) => inSystem(conversion, metric, imperial);
  return {
    labels: UNIT_LABELS[units],
    temperature: to(CONVERSIONS.temperature),
    speed: to(CONVERSIONS.speed),
    precipitation: to(CONVERSIONS.precipitation),
    snowfall: to(CONVERSIONS.snowfall),
    pressure: to(CONVERSIONS.pressure),
    visibility: to(CONVERSIONS.visibility),
  };
}
export type Converter = ReturnType<typeof converter>;

export const percent = (share: number): number => Math.round(share * 100);
export const round1 = (value: number): number => roundTo(value, 1);
export const round2 = (value: number): number => roundTo(value, 2);

export const PlaceOut = z.object({
  location_id: z.string(),
  name: z.string(),
  region: z.string(),
  country: z.string(),
  country_code: z.string(),
  lat: z.number(),
  lon: z.number(),
  elevation_m: z.number(),
  timezone: z.string().describe('IANA time zone; every local time in the answer is in it, with its UTC offset.'),
});

export function placeOut(place: Place) {
  return {
    location_id: place.id,
    name: place.name,
    region: place.region,
    country: place.country,
    country_code: place.country_code,
    lat: place.lat,
    lon: place.lon,
    elevation_m: place.elevation_m,
    timezone: place.timezone,
  };
}

export const ResolvedOut = z
  .object({ lat: z.number(), lon: z.number(), distance_km: z.number() })
  .nullable()
  .describe('When located by lat/lon: the point asked for and its distance to the place the model answers for; null with location_id.');

/** Local ISO 8601 time of an instant at the place. */
export const localTime = (place: Place, ms: number): string => formatLocal(place.timezone, ms);

/** The fields the model's forecasts (weather_forecast, weather_hourly) open their answer with. */
export const ForecastHeadOut = {
  provider: z.literal('model'),
  location: PlaceOut,
  resolved: ResolvedOut,
  issued_at: z.string().describe('When the forecast was made (local time).'),
  units: UnitsOut,
};

/** The head of a model forecast for `place` issued at `now`, in `cv`'s units. */
export function forecastHead(place: Place, resolved: z.infer<typeof ResolvedOut>, now: number, cv: Converter) {
  return { provider: 'model' as const, location: placeOut(place), resolved, issued_at: localTime(place, now), units: cv.labels };
}

/** Compass point of a direction in degrees (16 points). */
export function compass(deg: number): string {
  const points = ['N', 'NNE', 'NE', 'ENE', 'E', 'ESE', 'SE', 'SSE', 'S', 'SSW', 'SW', 'WSW', 'W', 'WNW', 'NW', 'NNW'];
  return points[Math.round((((deg % 360) + 360) % 360) / 22.5) % 16]!;
}

// ---- measurements -------------------------------------------------------------------------------

export const ConditionCode = z.enum(CONDITIONS).describe('Weather condition code.');

/** The measurement fields of a state of the weather, in the answer's units. */
export const MeasurementsOut = z.object({
  temperature: z.number(),
  feels_like: z.number().describe('Apparent temperature: heat index when hot and humid, wind chill when cold and windy.'),
  dewpoint: z.number(),
  humidity_pct: z.number().int(),
  pressure: z.number().describe('Pressure reduced to sea level.'),
  wind_speed: z.number(),
  wind_gust: z.number(),
  wind_direction_deg: z.number().int().describe('Where the wind blows from, degrees clockwise from north.'),
  wind_direction: z.string().describe("Compass point the wind blows from, e.g. 'WSW'."),
  cloud_cover_pct: z.number().int(),
  precipitation: z.number().describe('Precipitation in the hour (water equivalent).'),
  snowfall: z.number().describe('Snowfall in the hour.'),
  visibility: z.number(),
  uv_index: z.number(),
  condition: ConditionCode,
  description: z.string(),
  is_day: z.boolean(),
});

export function measurements(c: Conditions, cv: Converter) {
  const windDeg = Math.round(c.windDeg) % 360;
  return {
    temperature: cv.temperature(c.temperature),
    feels_like: cv.temperature(c.feelsLike),
    dewpoint: cv.temperature(c.dewpoint),
    humidity_pct: Math.round(c.humidity),
    pressure: cv.pressure(c.pressure),
    wind_speed: cv.speed(c.wind),
    wind_gust: cv.speed(c.gust),
    wind_direction_deg: windDeg,
    wind_direction: compass(windDeg),
    cloud_cover_pct: percent(c.cloud),
    precipitation: cv.precipitation(c.precip),
    snowfall: cv.snowfall(c.snow),
    visibility: cv.visibility(c.visibility),
    uv_index: round1(c.uv),
    condition: c.condition,
    description: CONDITION_TEXT[c.condition],
    is_day: c.isDay,
  };
}

export const DailyOut = z.object({
  date: z.string().describe('Local date, YYYY-MM-DD.'),
  condition: ConditionCode,
  description: z.string(),
  temperature_max: z.number(),
  temperature_min: z.number(),
  temperature_mean: z.number(),
  feels_like_max: z.number(),
  feels_like_min: z.number(),
  precipitation: z.number().describe('Total over the day (water equivalent).'),
  snowfall: z.number().describe('Total over the day.'),
  precipitation_probability_pct: z.number().int(),
  precipitation_hours: z.number().int().describe('Hours with at least 0.1 mm.'),
  wind_speed_max: z.number(),
  wind_gust_max: z.number(),
  wind_direction_deg: z.number().int().describe('Dominant direction the wind blows from.'),
  humidity_mean_pct: z.number().int(),
  cloud_cover_mean_pct: z.number().int().describe('Mean over the daylight hours.'),
  uv_index_max: z.number(),
  sunrise: z.string().nullable().describe('Local time; null in polar day or night.'),
  sunset: z.string().nullable(),
});

/** A day's summary in the answer's units; every value aggregates the day's hourly values. */
export function dailyOut(place: Place, day: DailySummary, cv: Converter) {
  const sun = sunEvents(place.lat, place.lon, day.date);
  return {
    date: day.date,
    condition: day.condition,
    description: CONDITION_TEXT[day.condition],
    temperature_max: cv.temperature(day.tempMax),
    temperature_min: cv.temperature(day.tempMin),
    temperature_mean: cv.temperature(day.tempMean),
    feels_like_max: cv.temperature(day.feelsMax),
    feels_like_min: cv.temperature(day.feelsMin),
    precipitation: cv.precipitation(day.precip),
    snowfall: cv.snowfall(day.snow),
    precipitation_probability_pct: Math.round(day.precipChance * 20) * 5,
    precipitation_hours: day.precipHours,
    wind_speed_max: cv.speed(day.windMax),
    wind_gust_max: cv.speed(day.gustMax),
    wind_direction_deg: Math.round(day.windDeg) % 360,
    humidity_mean_pct: Math.round(day.humidityMean),
    cloud_cover_mean_pct: percent(day.cloudMean),
    uv_index_max: round1(day.uvMax),
    sunrise: sun.sunrise === null ? null : localTime(place, sun.sunrise),
    sunset: sun.sunset === null ? null : localTime(place, sun.sunset),
  };
}
