import type { ResultHook } from '../../../hazards/kind.js';
import { isObject } from '../../../lib/object.js';
import { Random } from '../../../lib/random.js';
import { HOUR, MINUTE, addDays } from '../../../lib/time.js';
import { type PollutantName, airQualityIndex, aqiCategory, pollutantsAt } from '../air.js';
import { alertsAt } from '../alerts.js';
import { asPlace, bearingDeg, distanceKm, placeSite, placesByDistance, COVERAGE_KM, type WeatherDb } from '../db.js';
import { conditionsAt } from '../model.js';
import { CONVERSIONS, compass, converter, inSystem, localTime, round1, roundTo, UNIT_LABELS, type UnitConversion } from '../present.js';

// How weather's output hazards reshape an answer: other units, partner stations, a cut history, a
// stale alert list, a differently defined index beside the real one.

type Obj = Record<string, unknown>;
type Hook = ResultHook<WeatherDb>;

/** The measurement fields of weather_current's answer, and the kind of unit each has. */
const MEASURED: Record<string, UnitConversion> = {
  temperature: CONVERSIONS.temperature,
  feels_like: CONVERSIONS.temperature,
  dewpoint: CONVERSIONS.temperature,
  wind_speed: CONVERSIONS.speed,
  wind_gust: CONVERSIONS.speed,
  precipitation: CONVERSIONS.precipitation,
  snowfall: CONVERSIONS.snowfall,
  pressure: CONVERSIONS.pressure,
  visibility: CONVERSIONS.visibility,
};

/** A measurement of an answer in the given system, in metric (unrounded). */
export const toMetric = (field: keyof typeof MEASURED, value: number, imperial: boolean) => (imperial ? MEASURED[field]!.toMetric(value) : value);

/** weather_current, drifted: the answer comes in the other unit system than the one asked for; `units` says which. */
export function otherUnits({ result }: Hook): unknown {
  if (!isObject(result) || !isObject(result['units']) || !isObject(result['current'])) return result;
  const toImperial = result['units']['system'] === 'metric';
  const current = { ...result['current'] };
  for (const [field, conversion] of Object.entries(MEASURED)) {
    const value = current[field];
    if (typeof value !== 'number') continue;
    current[field] = toImperial ? inSystem(conversion, value, true) : inSystem(conversion, conversion.toMetric(value), false);
  }
  return { ...result, units: UNIT_LABELS[toImperial ? 'imperial' : 'metric'], current };
}

/** historical_weather's continuation after the first days: the start date of the rest. */
export function historyContinues({ result }: Hook, kept: readonly Obj[]): Obj {
  const total = (result as { days: Obj[] }).days.length;
  const next = addDays(String(kept.at(-1)!['date']), 1);
  return { has_more: true, next_start_date: next, days_returned: kept.length, days_total: total };
}

// ---- a partner's stations in the station list ---------------------------------------------------

/** The network whose personal weather stations the listing promotes (as Weather Underground's PWS are). */
const PARTNER_NETWORK = 'Backyard Weather Network';

/** The point `km` away in direction `bearing` (flat-earth step: a few km at most). */
function pointAt(lat: number, lon: number, km: number, bearing: number): { lat: number; lon: number } {
  const rad = (bearing * Math.PI) / 180;
  const dLat = (km * Math.cos(rad)) / 111.32;
  const dLon = (km * Math.sin(rad)) / (111.32 * Math.max(0.05, Math.cos((lat * Math.PI) / 180)));
  return { lat: roundTo(lat + dLat, 4), lon: roundTo(lon + dLon, 4) };
}

/**
 * Two personal weather stations of a partner network, promoted at the top of list_weather_stations:
 * inside the radius and closer than most of the network's own, reporting every few minutes, but
 * neither maintained nor quality-controlled by the network. Where they stand is fixed per search
 * center, as backyard stations do not move.
 */
export function partnerStations({ result, db, now }: Hook): Obj[] {
  if (!isObject(result) || !isObject(result['center'])) return [];
  const { lat, lon } = result['center'] as { lat: number; lon: number };
  const nearest = placesByDistance(db, lat, lon)[0];
  if (!nearest || nearest.distance > COVERAGE_KM) return [];
  const place = nearest.place;
  const random = new Random(`partner-stations:${lat}:${lon}`);
  const reach = Math.min(3, Number(result['radius_km']) * 0.6);
  const tag = place.name
    .normalize('NFKD')
    .replace(/[^A-Za-z]/g, '')
    .slice(0, 6)
    .toUpperCase();
  return [0, 1].map(() => {
    const at = pointAt(lat, lon, reach * (0.15 + 0.85 * random.next()), random.next() * 360);
    const direction = compass(bearingDeg(lat, lon, at.lat, at.lon));
    const age = random.int(1, 9);
    return {
      station_id: `PWS-${place.country_code}${tag}${random.digits(3)}`,
      name: `${place.name} ${direction} (${PARTNER_NETWORK})`,
      provider: 'partner',
      kind: 'suburban',
      lat: at.lat,
      lon: at.lon,
      elevation_m: Math.max(0, place.elevation_m + random.int(-5, 25)),
      distance_km: round1(distanceKm(lat, lon, at.lat, at.lon)),
      direction,
      location_id: place.id,
      report_interval_min: 5,
      last_report_at: localTime(place, Math.floor(now.getTime() / MINUTE - age) * MINUTE),
      minutes_since_report: age,
      status: 'reporting',
    };
  });
}

// ---- answers from a cache ------------------------------------------------------------------------

/** How old a lagging alert feed's copy may be, tried from the freshest. */
const CACHE_AGES_H = [2, 3, 4, 6, 8, 12] as const;

/** An alert the list shows as it was: over by now, or still "upcoming" after its onset. */
const outdated = (alert: { status: string; onset: string; expires: string }, now: number) =>
  Date.parse(alert.expires) <= now || (alert.status === 'upcoming' && Date.parse(alert.onset) <= now);

/**
 * weather_alerts from a lagging copy of the alert feed (a CDN serving CAP alerts past their update):
 * the list as it stood a few hours ago, the freshest such copy that shows an alert as it no longer
 * is. Null when no copy of the last half day would be out of date in a way one can see.
 */
export function laggingAlerts({ result, db, now }: Hook): { result: Obj; field: string } | null {
  if (!isObject(result) || !Array.isArray(result['location_ids']) || !isObject(result['units'])) return null;
  const places = (result['location_ids'] as string[]).flatMap((id) => {
    const location = db.locations.get(id);
    return location ? [asPlace(location)] : [];
  });
  const cv = converter(result['units']['system'] === 'imperial' ? 'imperial' : 'metric');
  const at = now.getTime();
  for (const hours of CACHE_AGES_H) {
    const alerts = alertsAt(places, at - hours * HOUR, cv);
    if (alerts.some((alert) => outdated(alert, at)))
      return { result: { ...result, as_of: new Date(at - hours * HOUR).toISOString(), count: alerts.length, alerts }, field: 'alerts' };
  }
  return null;
}

const POLLUTANTS: readonly PollutantName[] = ['pm2_5', 'pm10', 'o3', 'no2', 'so2', 'co'];

/**
 * Beside air_quality's index of the hour, the index of the past 24 hours' mean concentrations (the
 * averaging EPA's daily AQI uses for particles), as aggregators carry both (AirNow's hourly and daily
 * AQI): the same name, another definition, placed first.
 */
export function dailyMeanIndex({ result, db }: Hook): Obj | null {
  if (!isObject(result) || !isObject(result['location']) || typeof result['valid_at'] !== 'string') return null;
  const location = db.locations.get(String(result['location']['location_id']));
  if (!location) return null;
  const site = placeSite(asPlace(location));
  const end = Date.parse(result['valid_at']);
  const hours = Array.from({ length: 24 }, (_, i) => pollutantsAt(site, conditionsAt(site, end - (23 - i) * HOUR)));
  const mean = Object.fromEntries(POLLUTANTS.map((p) => [p, hours.reduce((sum, h) => sum + h[p], 0) / hours.length])) as Record<PollutantName, number>;
  const index = airQualityIndex(mean);
  return {
    summary: { aqi: index.aqi, category: aqiCategory(index.aqi), dominant_pollutant: index.dominant, averaging_hours: 24, period_end: result['valid_at'] },
  };
}
