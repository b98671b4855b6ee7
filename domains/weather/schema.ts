import { z } from 'zod';

// The weather data model: places (with the climate descriptors the model needs) and the
// stations of the observation network. Weather itself is not stored: domains/weather/model.ts
// computes it at call time from a place, an instant and a fixed seed.

export const CONTINENTS = ['Africa', 'Antarctica', 'Asia', 'Europe', 'North America', 'Oceania', 'South America'] as const;

/**
 * What the model needs to know of a place's climate. The generator derives these from latitude,
 * hemisphere, continentality and elevation, calibrated per city; `complete` estimates them for a
 * file that lacks them.
 */
export const Climate = z.object({
  koppen: z.string().describe("Köppen–Geiger climate class, e.g. 'Cfb'."),
  continentality: z.number().describe("Conrad's continentality index (0 oceanic … 100 extreme continental)."),
  base_temp_c: z.number().describe('Annual mean temperature reduced to sea level (°C); the model applies 6.5 °C/km.'),
  annual_range_c: z.number().min(0).describe('Warmest minus coldest monthly mean (°C).'),
  warmest_month: z.number().int().min(1).max(12),
  diurnal_range_c: z.number().min(0).describe('Typical clear-day range between the daily minimum and maximum (°C).'),
  precip_mm: z.number().min(0).describe('Annual precipitation (mm).'),
  wettest_month: z.number().int().min(1).max(12),
  precip_seasonality: z.number().min(0).describe('Concentration of precipitation around the wettest month (0 even … 3 monsoon).'),
  dewpoint_depression_c: z.number().min(0).describe('Typical gap between temperature and dew point (°C): small when humid.'),
  wind_kmh: z.number().min(0).describe('Mean wind speed (km/h).'),
  prevailing_wind_deg: z.number().min(0).max(360),
  pm25_ugm3: z.number().min(0).describe('Background fine-particle concentration (µg/m³).'),
});

export const Location = z.object({
  id: z.string(),
  name: z.string(),
  alternate_names: z.array(z.string()),
  country: z.string(),
  country_code: z.string().describe('ISO 3166-1 alpha-2.'),
  region: z.string().describe('First-level subdivision (state, province, …).'),
  region_code: z.string(),
  continent: z.enum(CONTINENTS),
  lat: z.number().min(-90).max(90),
  lon: z.number().min(-180).max(180),
  elevation_m: z.number(),
  timezone: z.string().describe('IANA time zone.'),
  population: z.number().int().min(0),
  /** Absent in a hand-written file: `complete` estimates it from the coordinates. */
  climate: Climate.optional(),
});

/** A station's small, constant differences from the model at its site: instruments and exposure. */
export const StationBias = z.object({
  temperature_c: z.number(),
  humidity_pct: z.number(),
  wind_factor: z.number().positive(),
  pressure_hpa: z.number(),
});

export const Station = z.object({
  id: z.string().describe("ICAO code for airport stations (e.g. 'KPDX'), 'ST-' and digits for the others."),
  name: z.string(),
  provider: z.literal('network'),
  kind: z.enum(['airport', 'urban', 'suburban', 'rural']),
  lat: z.number().min(-90).max(90),
  lon: z.number().min(-180).max(180),
  elevation_m: z.number(),
  location_id: z.string().describe('The place the station serves.'),
  report_interval_min: z.number().int().positive(),
  /** Minute of the interval at which reports are made, e.g. 53 for an hourly report at :53. */
  report_offset_min: z.number().int().min(0),
  /** Share of scheduled reports that arrive (the rest are missing). */
  reliability: z.number().min(0).max(1),
  /** When set, the station sends nothing from this instant on (ISO 8601). */
  offline_since: z.string().nullable(),
  bias: StationBias,
});

export const WeatherDatabase = z.object({
  locations: z.record(z.string(), Location),
  stations: z.record(z.string(), Station).default({}),
});

export type Climate = z.infer<typeof Climate>;
export type Location = z.infer<typeof Location>;
export type Station = z.infer<typeof Station>;
export type WeatherDatabase = z.infer<typeof WeatherDatabase>;

/** A place with its climate filled in, as every tool sees it after `complete`. */
export type Place = Location & { climate: Climate };

export interface WeatherRecords extends Record<string, unknown> {
  locations: Location;
  stations: Station;
}
