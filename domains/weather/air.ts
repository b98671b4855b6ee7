import { type Conditions, type DailySummary, type Site, midMonthDoy, smoothNoise } from './model.js';
import { solarHour } from './sun.js';
import { dayOfYear, startOfLocalDay } from '../../lib/time.js';

// Air quality and pollen, driven by the same weather: stagnant air and winter inversions raise
// particles, rain washes them out, sun and heat make ozone, rain and cold keep pollen down.

export interface Pollutants {
  /** µg/m³ */
  pm2_5: number;
  pm10: number;
  o3: number;
  no2: number;
  so2: number;
  /** mg/m³ */
  co: number;
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
const seasonal = (doy: number, peakDoy: number) => Math.cos((2 * Math.PI * (doy - peakDoy)) / 365.25);

/** Concentrations at a site, given the weather there at that instant. */
export function pollutantsAt(site: Site, weather: Conditions): Pollutants {
  const { climate } = site;
  const base = climate.pm25_ugm3;
  const doy = dayOfYear(weather.at);
  const winter = -seasonal(doy, midMonthDoy(climate.warmest_month));
  const smog = 0.25 + 0.35 * clamp01((base - 20) / 60);
  const stagnation = Math.min(1.6, Math.max(0.5, Math.sqrt(climate.wind_kmh / Math.max(3, weather.wind))));
  const washout = 1 - 0.5 * Math.min(1, weather.precip / 2);
  const hour = solarHour(site.lon, weather.at);
  const traffic = 1 + 0.18 * Math.cos((2 * Math.PI * (hour - 8)) / 12);
  const noise = Math.exp(0.35 * smoothNoise(`${site.key}:air`, weather.at, 36));
  const pm2_5 = base * (1 + smog * winter) * stagnation * washout * traffic * noise;
  const dusty = climate.koppen.startsWith('BW') ? 2.2 : climate.koppen.startsWith('BS') ? 1.9 : 1.6;
  const photochemistry = clamp01(weather.uv / 10) * clamp01((weather.temperature - 10) / 20);
  return {
    pm2_5,
    pm10: pm2_5 * dusty,
    o3: (30 + 70 * photochemistry * (1 + base / 200)) * Math.sqrt(noise),
    no2: (8 + 0.45 * base) * traffic * stagnation * washout,
    so2: (1 + 0.12 * base) * stagnation,
    co: (0.2 + 0.012 * base) * traffic * stagnation,
  };
}

type Breakpoints = readonly (readonly [cLow: number, cHigh: number, iLow: number, iHigh: number])[];

// US EPA AQI breakpoints (PM2.5 as revised in 2024), in the units the tables use.
export const PM25_BREAKPOINTS: Breakpoints = [
  [0, 9, 0, 50],
  [9.1, 35.4, 51, 100],
  [35.5, 55.4, 101, 150],
  [55.5, 125.4, 151, 200],
  [125.5, 225.4, 201, 300],
  [225.5, 325.4, 301, 500],
];
const PM10: Breakpoints = [
  [0, 54, 0, 50],
  [55, 154, 51, 100],
  [155, 254, 101, 150],
  [255, 354, 151, 200],
  [355, 424, 201, 300],
  [425, 604, 301, 500],
];
const O3_PPB: Breakpoints = [
  [0, 54, 0, 50],
  [55, 70, 51, 100],
  [71, 85, 101, 150],
  [86, 105, 151, 200],
  [106, 200, 201, 300],
  [201, 604, 301, 500],
];
const NO2_PPB: Breakpoints = [
  [0, 53, 0, 50],
  [54, 100, 51, 100],
  [101, 360, 101, 150],
  [361, 649, 151, 200],
  [650, 1249, 201, 300],
  [1250, 2049, 301, 500],
];
const SO2_PPB: Breakpoints = [
  [0, 35, 0, 50],
  [36, 75, 51, 100],
  [76, 185, 101, 150],
  [186, 304, 151, 200],
  [305, 604, 201, 300],
  [605, 1004, 301, 500],
];
const CO_PPM: Breakpoints = [
  [0, 4.4, 0, 50],
  [4.5, 9.4, 51, 100],
  [9.5, 12.4, 101, 150],
  [12.5, 15.4, 151, 200],
  [15.5, 30.4, 201, 300],
  [30.5, 50.4, 301, 500],
];

/** The AQI sub-index of one concentration (linear within its band; 500 at most). */
export function subIndex(table: Breakpoints, concentration: number): number {
  let band = table[0]!;
  for (const row of table) if (concentration >= row[0]) band = row;
  const [cLow, cHigh, iLow, iHigh] = band;
  if (concentration > cHigh) return iHigh;
  return Math.round(((iHigh - iLow) / (cHigh - cLow)) * (concentration - cLow) + iLow);
}

export const AQI_CATEGORIES = ['good', 'moderate', 'unhealthy_for_sensitive_groups', 'unhealthy', 'very_unhealthy', 'hazardous'] as const;
export type AqiCategory = (typeof AQI_CATEGORIES)[number];

export function aqiCategory(aqi: number): AqiCategory {
  if (aqi <= 50) return 'good';
  if (aqi <= 100) return 'moderate';
  if (aqi <= 150) return 'unhealthy_for_sensitive_groups';
  if (aqi <= 200) return 'unhealthy';
  if (aqi <= 300) return 'very_unhealthy';
  return 'hazardous';
}

export const AQI_ADVICE: Record<AqiCategory, string> = {
  good: 'Air quality is satisfactory; no precautions needed.',
  moderate: 'Acceptable; unusually sensitive people should consider limiting prolonged outdoor exertion.',
  unhealthy_for_sensitive_groups: 'Children, older adults and people with heart or lung disease should reduce prolonged or heavy outdoor exertion.',
  unhealthy: 'Everyone should reduce prolonged or heavy outdoor exertion; sensitive groups should avoid it.',
  very_unhealthy: 'Everyone should avoid prolonged or heavy outdoor exertion; sensitive groups should stay indoors.',
  hazardous: 'Health warning of emergency conditions: everyone should avoid all outdoor activity.',
};

export type PollutantName = keyof Pollutants;

/** US EPA AQI of the concentrations: the highest sub-index, and the pollutant that sets it. */
export function airQualityIndex(p: Pollutants): { aqi: number; dominant: PollutantName; subIndices: Record<PollutantName, number> } {
  const subIndices: Record<PollutantName, number> = {
    pm2_5: subIndex(PM25_BREAKPOINTS, Math.floor(p.pm2_5 * 10) / 10),
    pm10: subIndex(PM10, Math.floor(p.pm10)),
    o3: subIndex(O3_PPB, Math.floor(p.o3 / 1.96)),
    no2: subIndex(NO2_PPB, Math.floor(p.no2 / 1.88)),
    so2: subIndex(SO2_PPB, Math.floor(p.so2 / 2.62)),
    co: subIndex(CO_PPM, Math.floor((p.co / 1.145) * 10) / 10),
  };
  let dominant: PollutantName = 'pm2_5';
  for (const name of Object.keys(subIndices) as PollutantName[]) if (subIndices[name] > subIndices[dominant]) dominant = name;
  return { aqi: subIndices[dominant], dominant, subIndices };
}

// ---- pollen --------------------------------------------------------------------------------------

export const POLLEN_TYPES = ['tree', 'grass', 'weed'] as const;
export type PollenType = (typeof POLLEN_TYPES)[number];
export const POLLEN_LEVELS = ['none', 'low', 'moderate', 'high', 'very_high'] as const;
export type PollenLevel = (typeof POLLEN_LEVELS)[number];

/** Northern-hemisphere peak day, spread (days) and peak count (grains/m³) of each season. */
const POLLEN_SEASONS: Record<PollenType, { peak: number; spread: number; count: number; levels: readonly [number, number, number] }> = {
  tree: { peak: 110, spread: 25, count: 700, levels: [15, 90, 1500] },
  grass: { peak: 165, spread: 35, count: 140, levels: [5, 20, 200] },
  weed: { peak: 240, spread: 25, count: 180, levels: [10, 50, 500] },
};

export function pollenLevel(type: PollenType, count: number): PollenLevel {
  const [moderate, high, veryHigh] = POLLEN_SEASONS[type].levels;
  if (count < 1) return 'none';
  if (count < moderate) return 'low';
  if (count < high) return 'moderate';
  return count < veryHigh ? 'high' : 'very_high';
}

/** How much vegetation there is to flower: none on ice, little in deserts. */
function vegetation(koppen: string): number {
  if (koppen.startsWith('E')) return 0;
  if (koppen.startsWith('BW')) return 0.12;
  return koppen.startsWith('BS') ? 0.5 : 1;
}

/** Pollen counts of a local day, from its weather: rain and cold suppress, warm dry wind spreads. */
export function pollenCounts(site: Site, timeZone: string, day: DailySummary): Record<PollenType, number> {
  const noon = startOfLocalDay(timeZone, day.date) + 12 * 3_600_000;
  const doy = dayOfYear(noon);
  const latitude = Math.abs(site.lat);
  const southern = site.lat < 0;
  const tropical = Math.min(1, Math.max(0, (latitude - 15) / 15));
  const weather =
    (day.precip >= 5 ? 0.25 : day.precip >= 1 ? 0.55 : 1) * Math.min(1, Math.max(0.1, (day.tempMax - 3) / 12)) * (0.8 + 0.4 * Math.min(1, day.windMax / 25));
  const counts = {} as Record<PollenType, number>;
  for (const type of POLLEN_TYPES) {
    const season = POLLEN_SEASONS[type];
    const peak = season.peak + (southern ? 182.6 : 0) + Math.max(0, latitude - 40) * 1.5;
    let delta = Math.abs(doy - peak) % 365.25;
    delta = Math.min(delta, 365.25 - delta);
    const inSeason = Math.exp(-0.5 * (delta / season.spread) ** 2);
    const share = tropical * inSeason + (1 - tropical) * (type === 'grass' ? 0.3 : 0.12);
    const noise = Math.exp(0.5 * smoothNoise(`${site.key}:pollen:${type}`, noon, 48));
    const count = season.count * vegetation(site.climate.koppen) * share * weather * noise;
    counts[type] = count < 0.5 ? 0 : Math.round(count);
  }
  return counts;
}
