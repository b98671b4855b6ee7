import { Random } from '../../lib/random.js';
import type { Climate } from './schema.js';
import { halfDayHours, noonElevation, solarElevation, solarHour, sunEvents } from './sun.js';
import { DAY, HOUR, dayOfYear, hoursOfLocalDay } from '../../lib/time.js';

// The weather model: pure functions of (site, instant, fixed seed). Nothing is stored and nothing
// reads the wall clock, so any instant — past, present or future — always has the same weather.
//
//   temperature = seasonal normal (annual mean at sea level − lapse rate × elevation + half the annual
//                 range × a cosine peaking in the warmest month: inverted between the hemispheres)
//               + anomaly (smooth seeded noise, days-long, larger at high latitudes and inland)
//               + diurnal cycle (minimum at sunrise, maximum at 14:30 solar time; its amplitude
//                 shrinks with cloud and with a low sun)
//   wetness     = smooth seeded noise (hours to days), read as a quantile: it rains while it is above
//                 the month's threshold, which follows the month's precipitation normal; cloud grows
//                 as it approaches the threshold; pressure falls and wind rises with it.
// Dew point, humidity, feels-like, visibility, UV and the condition follow from these.

export const MODEL_SEED = 'wildtools-weather-model-1';
/** Temperature lapse rate, °C per metre. */
export const LAPSE_RATE = 0.0065;

/** Where weather is computed: a place or a station, with the climate and air mass of its place. */
export interface Site {
  /** Noise key: a place and its stations share one air mass (the place id). */
  readonly key: string;
  readonly lat: number;
  readonly lon: number;
  readonly elevation_m: number;
  readonly climate: Climate;
}

export const CONDITIONS = [
  'clear',
  'mostly_clear',
  'partly_cloudy',
  'mostly_cloudy',
  'overcast',
  'fog',
  'drizzle',
  'rain',
  'heavy_rain',
  'thunderstorm',
  'sleet',
  'snow',
] as const;
export type Condition = (typeof CONDITIONS)[number];

export const CONDITION_TEXT: Record<Condition, string> = {
  clear: 'Clear',
  mostly_clear: 'Mostly clear',
  partly_cloudy: 'Partly cloudy',
  mostly_cloudy: 'Mostly cloudy',
  overcast: 'Overcast',
  fog: 'Fog',
  drizzle: 'Drizzle',
  rain: 'Rain',
  heavy_rain: 'Heavy rain',
  thunderstorm: 'Thunderstorm',
  sleet: 'Sleet',
  snow: 'Snow',
};

/** The state of the atmosphere at a site and instant, in metric units, unrounded. */
export interface Conditions {
  at: number;
  temperature: number;
  feelsLike: number;
  dewpoint: number;
  humidity: number;
  /** Sea-level pressure, hPa. */
  pressure: number;
  wind: number;
  gust: number;
  windDeg: number;
  /** Cloud cover 0–1. */
  cloud: number;
  /** Precipitation during the hour from this instant (mm, water equivalent). */
  precip: number;
  /** Snowfall during the hour (cm). */
  snow: number;
  /** Chance of precipitation 0–1. */
  precipChance: number;
  visibility: number;
  uv: number;
  isDay: boolean;
  condition: Condition;
  /** Wetness quantile (0–1) and the month's rain threshold on it: internals for air and alerts. */
  wetness: number;
  threshold: number;
}

// ---- seeded smooth noise -----------------------------------------------------------------------

const knots = new Map<string, number>();

/** A standard normal value for knot `k` of a noise channel, from the fixed seed. */
function knot(channel: string, k: number): number {
  const id = `${channel}#${k}`;
  let value = knots.get(id);
  if (value === undefined) {
    const rng = new Random(`${MODEL_SEED}:${id}`);
    const u1 = Math.max(rng.next(), 1e-12);
    value = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * rng.next());
    if (knots.size >= 200_000) knots.clear();
    knots.set(id, value);
  }
  return value;
}

/**
 * Smooth noise with unit variance at every instant: independent normal knots every `periodHours`,
 * blended with smoothstep weights and renormalised, so nearby instants have nearby values.
 */
export function smoothNoise(channel: string, ms: number, periodHours: number): number {
  const x = ms / (periodHours * HOUR);
  const k = Math.floor(x);
  const f = x - k;
  const s = f * f * (3 - 2 * f);
  return ((1 - s) * knot(channel, k) + s * knot(channel, k + 1)) / Math.sqrt((1 - s) ** 2 + s ** 2);
}

/** Two octaves of smooth noise, still with unit variance. */
function twoOctaves(channel: string, ms: number, slow: number, fast: number, fastWeight: number): number {
  const a = smoothNoise(`${channel}:slow`, ms, slow);
  const b = smoothNoise(`${channel}:fast`, ms, fast);
  return (a + fastWeight * b) / Math.sqrt(1 + fastWeight ** 2);
}

/** Standard normal cumulative distribution (Abramowitz–Stegun 26.2.17, error < 1e-7). */
export function normalCdf(z: number): number {
  const t = 1 / (1 + 0.2316419 * Math.abs(z));
  const d = 0.3989422804014327 * Math.exp((-z * z) / 2);
  const tail = d * t * (0.31938153 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
  return z >= 0 ? 1 - tail : tail;
}

// ---- climate -------------------------------------------------------------------------------------

const MID_MONTH_DOY = [16, 45.5, 75, 105.5, 136, 166.5, 197, 228, 258.5, 289, 319.5, 350] as const;
export const midMonthDoy = (month: number): number => MID_MONTH_DOY[month - 1] ?? 16;

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
const clamp01 = (x: number) => clamp(x, 0, 1);
const seasonal = (doy: number, peakDoy: number) => Math.cos((2 * Math.PI * (doy - peakDoy)) / 365.25);

/** Modified Bessel function I0, for the von Mises shape of the precipitation year. */
function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  for (let k = 1; k < 30; k++) {
    term *= (x / 2 / k) ** 2;
    sum += term;
  }
  return sum;
}

/** Normal daily-mean temperature at the elevation on a day of the year. */
export function normalTemp(climate: Climate, elevation: number, doy: number): number {
  return climate.base_temp_c - LAPSE_RATE * elevation + (climate.annual_range_c / 2) * seasonal(doy, midMonthDoy(climate.warmest_month));
}

/** Normal precipitation as a monthly total (mm) at a day of the year. */
export function normalMonthlyPrecip(climate: Climate, doy: number): number {
  const k = climate.precip_seasonality;
  return (climate.precip_mm / 12) * (Math.exp(k * seasonal(doy, midMonthDoy(climate.wettest_month))) / besselI0(k));
}

/** Share of days with precipitation, from the month's normal total. */
export function rainyDayShare(monthlyMm: number): number {
  return Math.min(0.6, 0.75 * (1 - Math.exp(-monthlyMm / 70)) ** 1.3);
}

/** Share of hours with precipitation: showers (warm climates) are shorter than frontal rain. */
function rainyHourShare(monthlyMm: number, normal: number): number {
  return Math.max(1e-4, rainyDayShare(monthlyMm) * (0.4 - 0.15 * clamp01((normal - 15) / 10)));
}

/** How much a low sun damps the day's temperature swing (polar winter ≈ 0.35, high sun 1). */
function sunFactor(lat: number, ms: number): number {
  return 0.35 + 0.65 * clamp01(Math.sin((noonElevation(lat, ms) * Math.PI) / 180) * 1.3);
}

/** Cloud cover (0–1) from the wetness quantile, before the fast cloud noise. */
function cloudFromWetness(wetness: number, threshold: number, rainyDays: number): number {
  const start = threshold - (0.25 + 0.9 * rainyDays);
  return clamp01((wetness - start) / (threshold - start)) ** 0.9;
}

/**
 * How far the dew point sits below the day's mean temperature: the climate's figure, larger in the
 * dry season and smaller in the wet one, and smaller under cloud.
 */
function dewpointDepression(climate: Climate, monthlyMm: number, cloud: number): number {
  const dryness = clamp((climate.precip_mm / 12 / Math.max(monthlyMm, 0.1)) ** 0.3, 0.6, 1.6);
  return climate.dewpoint_depression_c * dryness * (1 - 0.35 * cloud) + climate.diurnal_range_c * 0.15;
}

/** Size of the day's temperature anomalies (°C): larger far from the equator and inland. */
export function anomalySpread(climate: Climate, lat: number): number {
  return clamp(0.8 + 0.045 * Math.abs(lat) * (0.6 + climate.continentality / 100), 0.8, 6);
}

// ---- the diurnal cycle ------------------------------------------------------------------------

/** Solar hour of the daily maximum. */
const PEAK_HOUR = 14.5;

/** −1 at sunrise, +1 at 14:30 solar time, falling fast after it and slowly through the night. */
export function diurnalShape(hour: number, sunrise: number): number {
  const rise = clamp(sunrise, 3, 9);
  if (hour >= rise && hour <= PEAK_HOUR) return -Math.cos((Math.PI * (hour - rise)) / (PEAK_HOUR - rise));
  const x = hour > PEAK_HOUR ? hour - PEAK_HOUR : hour + 24 - PEAK_HOUR;
  const length = rise + 24 - PEAK_HOUR;
  const k = 2.5;
  return -1 + (2 * (Math.exp((-k * x) / length) - Math.exp(-k))) / (1 - Math.exp(-k));
}

// ---- derived quantities -------------------------------------------------------------------------

/**
 * The gap between temperature and dew point when the air tends to saturate: unchanged above 2 °C,
 * then shrinking smoothly towards 0.4 °C, so that humid nights approach saturation without reaching it.
 */
export function saturationGap(rawGap: number): number {
  return rawGap > 2 ? rawGap : 0.4 + 1.6 * Math.exp((rawGap - 2) / 1.6);
}

/** Dew point → relative humidity (%), Magnus formula. */
export function relativeHumidity(temperature: number, dewpoint: number): number {
  const e = (t: number) => Math.exp((17.625 * t) / (243.04 + t));
  return clamp((100 * e(dewpoint)) / e(temperature), 1, 100);
}

/** Apparent temperature: NWS heat index when hot, wind chill when cold and windy, else the air. */
export function feelsLike(temperature: number, humidity: number, windKmh: number): number {
  if (temperature >= 26.7) {
    const f = (temperature * 9) / 5 + 32;
    let hi = 0.5 * (f + 61 + (f - 68) * 1.2 + humidity * 0.094);
    if (hi >= 80) {
      hi =
        -42.379 +
        2.04901523 * f +
        10.14333127 * humidity -
        0.22475541 * f * humidity -
        0.00683783 * f * f -
        0.05481717 * humidity * humidity +
        0.00122874 * f * f * humidity +
        0.00085282 * f * humidity * humidity -
        0.00000199 * f * f * humidity * humidity;
      if (humidity < 13 && f >= 80 && f <= 112) hi -= ((13 - humidity) / 4) * Math.sqrt((17 - Math.abs(f - 95)) / 17);
      else if (humidity > 85 && f >= 80 && f <= 87) hi += ((humidity - 85) / 10) * ((87 - f) / 5);
    }
    return Math.max(temperature, ((hi - 32) * 5) / 9);
  }
  if (temperature <= 10 && windKmh > 4.8) {
    const v = windKmh ** 0.16;
    return Math.min(temperature, 13.12 + 0.6215 * temperature - 11.37 * v + 0.3965 * temperature * v);
  }
  return temperature;
}

/** Clear-sky UV index from the sun's height, raised by altitude and cut by cloud. */
export function uvIndex(lat: number, lon: number, elevation: number, ms: number, cloud: number): number {
  const elevationDeg = solarElevation(lat, lon, ms);
  if (elevationDeg <= 0) return 0;
  const mu = Math.sin((elevationDeg * Math.PI) / 180);
  const clear = 12.5 * mu ** 2.42 * (1 + (0.08 * Math.max(0, elevation)) / 1000) * (1 - (0.12 * Math.abs(lat)) / 90);
  return clear * (1 - 0.7 * cloud ** 2.5);
}

function conditionOf(c: { precip: number; snow: number; temperature: number; thunder: boolean; cloud: number; fog: boolean }): Condition {
  if (c.precip >= 0.05) {
    if (c.thunder) return 'thunderstorm';
    if (c.snow > 0) return 'snow';
    if (c.temperature <= 2) return 'sleet';
    return c.precip >= 4 ? 'heavy_rain' : c.precip >= 0.5 ? 'rain' : 'drizzle';
  }
  if (c.fog) return 'fog';
  if (c.cloud >= 0.9) return 'overcast';
  if (c.cloud >= 0.65) return 'mostly_cloudy';
  if (c.cloud >= 0.3) return 'partly_cloudy';
  return c.cloud >= 0.1 ? 'mostly_clear' : 'clear';
}

// ---- the state at an instant --------------------------------------------------------------------

/** The weather at a site and instant. */
export function conditionsAt(site: Site, ms: number): Conditions {
  const { climate, lat, lon, key } = site;
  const doy = dayOfYear(ms);
  const normal = normalTemp(climate, site.elevation_m, doy);
  const monthly = normalMonthlyPrecip(climate, doy);
  const rainyDays = rainyDayShare(monthly);
  const rainyHours = rainyHourShare(monthly, normal);
  const threshold = 1 - rainyHours;

  const wetSlow = smoothNoise(`${key}:wet:slow`, ms, 48);
  const wetness = normalCdf((wetSlow + 0.8 * smoothNoise(`${key}:wet:fast`, ms, 10)) / Math.sqrt(1.64));
  const raining = wetness > threshold;
  const excess = raining ? (wetness - threshold) / rainyHours : 0;
  const stormy = clamp01((wetness - (threshold - 0.1)) / (1 - threshold + 0.1)) ** 2;

  let cloud = clamp01(cloudFromWetness(wetness, threshold, rainyDays) + 0.12 * smoothNoise(`${key}:cloud`, ms, 6));
  if (raining) cloud = Math.max(cloud, 0.85 + 0.15 * excess);

  // Temperature: normal + anomaly + the day's cycle, damped by cloud and a low sun.
  const anomaly = anomalySpread(climate, lat) * twoOctaves(`${key}:temp`, ms, 110, 30, 0.45);
  const hour = solarHour(lon, ms);
  const sunrise = 12 - halfDayHours(lat, ms);
  const swing = climate.diurnal_range_c * sunFactor(lat, ms) * (1 - 0.6 * cloud);
  const shape = diurnalShape(hour, sunrise);
  const convective = clamp01((normal - 15) / 10);
  const rateShape = 2 + convective;
  const meanRate = monthly / (30.44 * 24 * rainyHours);
  const precip = raining ? meanRate * (rateShape + 1) * excess ** rateShape : 0;
  const temperature = normal + anomaly + (swing / 2) * shape - Math.min(3, 0.8 * precip);

  // Moisture.
  const depression = dewpointDepression(climate, monthly, cloud);
  const rawGap = temperature - (normal + anomaly - depression);
  const dewpoint = raining ? temperature - 0.4 : temperature - saturationGap(rawGap);
  const humidity = relativeHumidity(temperature, dewpoint);

  // Wind: lognormal around the climate's mean, stronger in the afternoon and in storms.
  const breeze = climate.wind_kmh * Math.exp(0.38 * smoothNoise(`${key}:wind`, ms, 20) - 0.072);
  const wind = breeze * (0.85 + 0.15 * (shape + 1)) + climate.wind_kmh * 2.2 * stormy;
  const thunder = precip >= 4 && temperature >= 18 && excess >= 0.6;
  const gust = wind * (1.3 + 0.2 * cloud) + (thunder ? 25 * excess : 0);
  const windDeg = (((climate.prevailing_wind_deg + 55 * smoothNoise(`${key}:dir`, ms, 30) + 40 * stormy) % 360) + 360) % 360;

  const winterHigh = (climate.continentality / 100) * 8 * -seasonal(doy, midMonthDoy(climate.warmest_month));
  const pressure = clamp(1014 + winterHigh - 7 * wetSlow - 14 * stormy, 955, 1055);

  const snow = precip > 0 && temperature <= 0.5 ? precip * (temperature < -5 ? 1.3 : 1) : 0;
  const fog = !raining && rawGap <= -1 && wind < 9 && cloud < 0.8;
  const haze = 28 - climate.pm25_ugm3 / 6;
  let visibility = clamp(haze, 5, 30);
  if (precip > 0) visibility = Math.min(visibility, (snow > 0 ? 6 : 14) / (1 + precip));
  if (fog) visibility = Math.min(visibility, 0.2 + 0.8 * (1 - humidity / 100) * 10);

  const uv = uvIndex(lat, lon, site.elevation_m, ms, cloud);
  return {
    at: ms,
    temperature,
    feelsLike: feelsLike(temperature, humidity, wind),
    dewpoint,
    humidity,
    pressure,
    wind,
    gust,
    windDeg,
    cloud,
    precip,
    snow,
    precipChance: clamp01((wetness - (threshold - 0.2)) / 0.25),
    visibility,
    uv,
    isDay: solarElevation(lat, lon, ms) > -0.833,
    condition: conditionOf({ precip, snow, temperature, thunder, cloud, fog }),
    wetness,
    threshold,
  };
}

// ---- days ----------------------------------------------------------------------------------------

export interface DailySummary {
  date: string;
  hours: Conditions[];
  tempMax: number;
  tempMin: number;
  tempMean: number;
  feelsMax: number;
  feelsMin: number;
  precip: number;
  snow: number;
  precipChance: number;
  precipHours: number;
  windMax: number;
  gustMax: number;
  /** Vector-mean wind direction (degrees). */
  windDeg: number;
  humidityMean: number;
  cloudMean: number;
  uvMax: number;
  condition: Condition;
}

const SIGNIFICANCE: readonly Condition[] = ['thunderstorm', 'snow', 'sleet', 'heavy_rain', 'rain', 'drizzle'];

/** The local day's summary: every value is an aggregate of the hourly states of that day. */
export function dailySummary(site: Site, timeZone: string, date: string): DailySummary {
  const hours = hoursOfLocalDay(timeZone, date).map((at) => conditionsAt(site, at));
  const sum = (f: (c: Conditions) => number) => hours.reduce((total, c) => total + f(c), 0);
  const max = (f: (c: Conditions) => number) => Math.max(...hours.map(f));
  const min = (f: (c: Conditions) => number) => Math.min(...hours.map(f));
  const precip = sum((c) => c.precip);
  const snow = sum((c) => c.snow);
  const daytime = hours.filter((c) => c.isDay);
  const cloudHours = daytime.length > 0 ? daytime : hours;
  const cloudMean = cloudHours.reduce((total, c) => total + c.cloud, 0) / cloudHours.length;
  const east = sum((c) => c.wind * Math.sin((c.windDeg * Math.PI) / 180));
  const north = sum((c) => c.wind * Math.cos((c.windDeg * Math.PI) / 180));

  // The day's condition: the most significant precipitation that amounts to something, else fog, else the sky.
  const wet = SIGNIFICANCE.find((kind) => {
    const hits = hours.filter((c) => c.condition === kind);
    const amount = hits.reduce((total, c) => total + c.precip, 0);
    return kind === 'thunderstorm' ? hits.length > 0 : amount >= (kind === 'drizzle' ? 0.2 : 1);
  });
  const foggy = hours.filter((c) => c.condition === 'fog').length >= 3;
  const sky = conditionOf({ precip: 0, snow: 0, temperature: 10, thunder: false, cloud: cloudMean, fog: false });
  const solarNoon = sunEvents(site.lat, site.lon, date).solarNoon;
  const noonCloud = conditionsAt(site, solarNoon).cloud;
  return {
    date,
    hours,
    tempMax: max((c) => c.temperature),
    tempMin: min((c) => c.temperature),
    tempMean: sum((c) => c.temperature) / hours.length,
    feelsMax: max((c) => c.feelsLike),
    feelsMin: min((c) => c.feelsLike),
    precip,
    snow,
    precipChance: max((c) => c.precipChance),
    precipHours: hours.filter((c) => c.precip >= 0.1).length,
    windMax: max((c) => c.wind),
    gustMax: max((c) => c.gust),
    windDeg: ((Math.atan2(east, north) * 180) / Math.PI + 360) % 360,
    humidityMean: sum((c) => c.humidity) / hours.length,
    cloudMean,
    uvMax: Math.max(
      max((c) => c.uv),
      uvIndex(site.lat, site.lon, site.elevation_m, solarNoon, noonCloud),
    ),
    condition: wet ?? (foggy ? 'fog' : sky),
  };
}

// ---- climate normals -----------------------------------------------------------------------------

export interface MonthlyNormal {
  month: number;
  tempMean: number;
  tempMaxMean: number;
  tempMinMean: number;
  precip: number;
  precipDays: number;
  humidity: number;
  sunshineHours: number;
  windMean: number;
}

const DAYS_IN_MONTH = [31, 28.25, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

/**
 * The month's normals, from the same climate as the hourly model: mean temperature, the mean daily
 * maximum and minimum (with the month's mean cloud damping the swing), precipitation and rainy days.
 */
export function monthlyNormal(site: Site, month: number): MonthlyNormal {
  const { climate, lat } = site;
  const doy = midMonthDoy(month);
  const at = Date.UTC(2001, 0, 1) + (doy - 1) * DAY;
  const normal = normalTemp(climate, site.elevation_m, doy);
  const monthly = normalMonthlyPrecip(climate, doy);
  const rainyDays = rainyDayShare(monthly);
  const threshold = 1 - rainyHourShare(monthly, normal);
  // Mean cloud over the wetness quantiles, which the model spreads uniformly.
  let cloud = 0;
  const steps = 200;
  for (let i = 0; i < steps; i++) {
    const u = (i + 0.5) / steps;
    cloud += u > threshold ? 0.92 : cloudFromWetness(u, threshold, rainyDays);
  }
  cloud /= steps;
  const swing = climate.diurnal_range_c * sunFactor(lat, at) * (1 - 0.6 * cloud);
  const depression = dewpointDepression(climate, monthly, cloud);
  const sunrise = 12 - halfDayHours(lat, at);
  let humidity = 0;
  for (let h = 0; h < 24; h++) {
    const t = normal + (swing / 2) * diurnalShape(h + 0.5, sunrise);
    humidity += relativeHumidity(t, t - saturationGap(t - (normal - depression)));
  }
  const days = DAYS_IN_MONTH[month - 1] ?? 30;
  return {
    month,
    tempMean: normal,
    tempMaxMean: normal + swing / 2,
    tempMinMean: normal - swing / 2,
    precip: monthly * (days / 30.44),
    precipDays: rainyDays * days,
    humidity: humidity / 24,
    sunshineHours: 2 * halfDayHours(lat, at) * days * 0.75 * (1 - 0.9 * cloud),
    windMean: climate.wind_kmh,
  };
}
