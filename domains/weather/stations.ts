import { Random, hash32 } from '../../lib/random.js';
import { stationSite } from './db.js';
import { type Conditions, conditionsAt, feelsLike, relativeHumidity } from './model.js';
import type { Place, Station } from './schema.js';
import { DAY, MINUTE } from '../../lib/time.js';

// The station network: each station reports on its own schedule (hourly at a fixed minute for
// airports, every few minutes for automatic stations); some reports never arrive, unreliable
// stations fall silent for hours at a time, and a station that went offline sends nothing more.
// A report is the model's weather at the station's own position and height, plus the station's
// constant bias and a little instrument noise.

/** How far back the network looks for a station's latest report. */
export const REPORT_LOOKBACK_MS = 7 * DAY;

/** Unreliable stations also go silent for whole blocks of hours (power, link or sensor outages). */
const OUTAGE_BLOCK_MS = 6 * 3_600_000;

/** True when the scheduled report at this instant reached the network. */
export function arrived(station: Station, at: number): boolean {
  if (station.offline_since !== null && at >= Date.parse(station.offline_since)) return false;
  const block = Math.floor(at / OUTAGE_BLOCK_MS);
  if (hash32('outage', station.id, block) / 4294967296 < (1 - station.reliability) * 0.8) return false;
  return hash32('report', station.id, at) / 4294967296 < station.reliability;
}

/** The instant of the station's latest report at or before `now`, or null when none in 7 days. */
export function latestReport(station: Station, now: number): number | null {
  const interval = station.report_interval_min * MINUTE;
  const offset = station.report_offset_min * MINUTE;
  let at = Math.floor((now - offset) / interval) * interval + offset;
  for (; at > now - REPORT_LOOKBACK_MS; at -= interval) if (arrived(station, at)) return at;
  return null;
}

/** The station's report at a report instant. */
export function observation(station: Station, place: Place, at: number): Conditions {
  const truth = conditionsAt(stationSite(station, place), at);
  const rng = new Random(`observation:${station.id}:${at}`);
  const noise = () => rng.next() + rng.next() - 1;
  const { bias } = station;
  const temperature = truth.temperature + bias.temperature_c + 0.3 * noise();
  const dewpoint = Math.min(temperature, truth.dewpoint + bias.temperature_c + 0.3 * noise());
  const humidity = Math.min(100, Math.max(1, relativeHumidity(temperature, dewpoint) + bias.humidity_pct));
  const wind = truth.wind * bias.wind_factor * (1 + 0.05 * noise());
  return {
    ...truth,
    temperature,
    dewpoint,
    humidity,
    wind,
    gust: Math.max(wind, truth.gust * bias.wind_factor),
    windDeg: (Math.round(truth.windDeg / 10) * 10) % 360,
    pressure: truth.pressure + bias.pressure_hpa,
    feelsLike: feelsLike(temperature, humidity, wind),
  };
}
