import type { ResultHook } from '../../../hazards/kind.js';
import { isObject } from '../../../lib/object.js';
import { MINUTE } from '../../../lib/time.js';
import { asPlace, distanceKm, type WeatherDb } from '../db.js';
import { feelsLike } from '../model.js';
import { converter } from '../present.js';
import type { Station } from '../schema.js';
import { latestReport, observation } from '../stations.js';
import { toMetric } from './output.js';

// The two providers of current conditions, and how the model's answer comes to disagree with a station.

/** The policy's test of a station observation that is authoritative for current conditions. */
export const AUTHORITATIVE_KM = 25;
export const AUTHORITATIVE_AGE_MIN = 60;

/**
 * The station that is authoritative for a place's current conditions at `now`, as the policy says:
 * within 25 km of the place, its latest observation at most 60 minutes old; the nearest such.
 */
export function authoritativeStation(db: WeatherDb, locationId: string, now: number): { station: Station; at: number } | null {
  const location = db.locations.get(locationId);
  if (!location) return null;
  const candidates = [...db.stations.values()]
    .map((station) => ({ station, distance: distanceKm(location.lat, location.lon, station.lat, station.lon), at: latestReport(station, now) }))
    .filter(({ distance, at }) => distance <= AUTHORITATIVE_KM && at !== null && now - at <= AUTHORITATIVE_AGE_MIN * MINUTE)
    .sort((a, b) => a.distance - b.distance || (a.station.id < b.station.id ? -1 : 1));
  const best = candidates[0];
  return best ? { station: best.station, at: best.at! } : null;
}

/**
 * weather_current 3 to 6 degrees off what the nearby station measures, as a model nowcast drifts from
 * a METAR when a front passes. The air mass moves as a whole: the dew point by as much, so humidity
 * holds, and the feels-like follows from the new temperature.
 */
export function modelOffStation({ result, db, sessionRandom: random }: ResultHook<WeatherDb>) {
  if (!isObject(result) || !isObject(result['current']) || !isObject(result['location']) || !isObject(result['units'])) return null;
  if (typeof result['local_time'] !== 'string') return null;
  const found = authoritativeStation(db, String(result['location']['location_id']), Date.parse(result['local_time']));
  if (!found) return null;
  const current = result['current'] as { temperature: number; dewpoint: number; humidity_pct: number; wind_speed: number };
  const imperial = result['units']['system'] === 'imperial';
  const cv = converter(imperial ? 'imperial' : 'metric');
  const measured = observation(found.station, asPlace(db.locations.get(found.station.location_id)!), found.at).temperature;
  const temperature = measured + random.int(3, 6) * (random.bool(0.5) ? 1 : -1);
  const shift = temperature - toMetric('temperature', current.temperature, imperial);
  const shifted = {
    ...current,
    temperature: cv.temperature(temperature),
    feels_like: cv.temperature(feelsLike(temperature, current.humidity_pct, toMetric('wind_speed', current.wind_speed, imperial))),
    dewpoint: cv.temperature(toMetric('dewpoint', current.dewpoint, imperial) + shift),
  };
  return { result: { ...result, current: shifted }, field: 'current.temperature', shown: shifted.temperature };
}
