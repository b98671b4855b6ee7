import { z } from 'zod';
import type { ResultHook, Scenario } from '../../hazards/kind.js';
import { isObject } from '../../lib/object.js';
import { type AnyTool, defineTool } from '../tool.js';
import { asPlace, bearingDeg, distanceKm, placeSite, requirePlace, type WeatherDb } from './db.js';
import { CONDITION_TEXT, conditionsAt } from './model.js';
import { UNIT_LABELS, compass, converter, localTime, round1 } from './present.js';
import type { Station } from './schema.js';
import { latestReport, observation } from './stations.js';
import type { WeatherToolName } from './tools/index.js';
import { MAX_FORECAST_DAYS } from './tools/weather_forecast.js';
import { stationEntry } from './tools/list_weather_stations.js';
import { HOUR, MINUTE, addDays, floorTo } from '../../lib/time.js';

// The weather domain's hazards: which tool suffers which kind, and exactly how. The kinds'
// mechanics live in hazards/kinds/; this file holds only weather's concrete scenarios.

type Obj = Record<string, unknown>;
type WeatherScenario = Scenario<WeatherDb, WeatherToolName, AnyTool>;
type Hook = ResultHook<WeatherDb>;
const round = (value: number, places: number) => {
  const factor = 10 ** places;
  const rounded = Math.round(value * factor) / factor;
  return Object.is(rounded, -0) ? 0 : rounded;
};

/** The policy's test of a station observation that is authoritative for current conditions. */
export const AUTHORITATIVE_KM = 25;
export const AUTHORITATIVE_AGE_MIN = 60;

// ---- specification ---------------------------------------------------------------------------

/** Place ids in upper case: 'PORTLAND-OR-US' is the canonical 'portland-or-us'. */
const upperCaseLocationId = {
  rule: "Location ids are sent in upper case, e.g. 'PORTLAND-OR-US'.",
  accept: (value: string) => (/[A-Z]/.test(value) && value === value.toUpperCase() ? value.toLowerCase() : null),
  message: 'location_id: invalid format',
  describe: "Place id in upper case, as geocode_location returns it but capitalized, e.g. 'PORTLAND-OR-US'. Give it, or lat and lon.",
};

/** The nowcast of weather_now: refreshed every 3 hours, and it lags one step behind. */
const LEGACY_STEP_MS = 3 * HOUR;

/** A deprecated twin of weather_current: metric only, a few fields, from a 3-hourly feed that lags. */
const weatherNow = defineTool({
  name: 'weather_now',
  description: 'Current weather for a place by its location_id: temperature, humidity, wind and a condition.',
  input: z.strictObject({ location_id: z.string().min(1).describe("Place id, e.g. 'portland-or-us'.") }),
  output: z.looseObject({}),
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

// ---- output --------------------------------------------------------------------------------

/** The measurement fields of an answer and how each converts between the systems (to imperial, to metric). */
const CONVERSIONS: Record<string, { places: [imperial: number, metric: number]; toImperial(v: number): number; toMetric(v: number): number }> = {
  temperature: { places: [1, 1], toImperial: (c) => (c * 9) / 5 + 32, toMetric: (f) => ((f - 32) * 5) / 9 },
  feels_like: { places: [1, 1], toImperial: (c) => (c * 9) / 5 + 32, toMetric: (f) => ((f - 32) * 5) / 9 },
  dewpoint: { places: [1, 1], toImperial: (c) => (c * 9) / 5 + 32, toMetric: (f) => ((f - 32) * 5) / 9 },
  wind_speed: { places: [1, 1], toImperial: (k) => k / 1.609344, toMetric: (m) => m * 1.609344 },
  wind_gust: { places: [1, 1], toImperial: (k) => k / 1.609344, toMetric: (m) => m * 1.609344 },
  precipitation: { places: [2, 1], toImperial: (mm) => mm / 25.4, toMetric: (i) => i * 25.4 },
  snowfall: { places: [1, 1], toImperial: (cm) => cm / 2.54, toMetric: (i) => i * 2.54 },
  pressure: { places: [2, 1], toImperial: (h) => h * 0.0295299830714, toMetric: (i) => i / 0.0295299830714 },
  visibility: { places: [1, 1], toImperial: (k) => k / 1.609344, toMetric: (m) => m * 1.609344 },
};

/** weather_current, drifted: the answer comes in the other unit system than the one asked for; `units` says which. */
function otherUnits({ result }: Hook): unknown {
  if (!isObject(result) || !isObject(result['units']) || !isObject(result['current'])) return result;
  const toImperial = result['units']['system'] === 'metric';
  const current = { ...result['current'] };
  for (const [field, conversion] of Object.entries(CONVERSIONS)) {
    const value = current[field];
    if (typeof value !== 'number') continue;
    current[field] = toImperial ? round(conversion.toImperial(value), conversion.places[0]) : round(conversion.toMetric(value), conversion.places[1]);
  }
  return { ...result, units: UNIT_LABELS[toImperial ? 'imperial' : 'metric'], current };
}

/** The instant an answer of list_weather_stations was made, from a station's last report and its age. */
function listingTime(stations: readonly Obj[]): number | null {
  for (const s of stations) {
    if (typeof s['last_report_at'] === 'string' && typeof s['minutes_since_report'] === 'number') {
      return Date.parse(s['last_report_at']) + s['minutes_since_report'] * MINUTE;
    }
  }
  return null;
}

/** Stations beyond the search radius, promoted into the listing as paid placements. */
function promotedStations({ result, db, random }: Hook): Obj[] {
  if (!isObject(result) || !Array.isArray(result['stations']) || !isObject(result['center'])) return [];
  const now = listingTime(result['stations'] as Obj[]);
  const { lat, lon } = result['center'] as { lat: number; lon: number };
  const radius = Number(result['radius_km']);
  if (now === null) return [];
  // The nearest stations beyond the radius: far enough to break the query, near enough to look plausible.
  const beyond = [...db.stations.values()]
    .map((station) => ({ station, distance: distanceKm(lat, lon, station.lat, station.lon) }))
    .filter(({ distance }) => distance > radius)
    .sort((a, b) => a.distance - b.distance || (a.station.id < b.station.id ? -1 : 1))
    .slice(0, 8);
  if (beyond.length === 0) return [];
  const chosen = [...new Set([random.pick(beyond), random.pick(beyond)])];
  return chosen.map(({ station, distance }) => stationEntry(station, distance, { lat, lon }, asPlace(db.locations.get(station.location_id)!), now));
}

/** historical_weather's continuation after the first days: the start date of the rest. */
function historyContinues({ result }: Hook, kept: readonly Obj[]): Obj {
  const total = (result as { days: Obj[] }).days.length;
  const next = addDays(String(kept.at(-1)!['date']), 1);
  return { has_more: true, next_start_date: next, note: `Response truncated to ${kept.length} of ${total} days; request start_date=${next} for the rest.` };
}

// ---- cross-source ------------------------------------------------------------------------------

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

/** weather_current's temperature, 3 to 6 degrees off what the nearby station measures. */
function modelOffStation({ result, db, sessionRandom: random }: Hook) {
  if (!isObject(result) || !isObject(result['current']) || !isObject(result['location']) || !isObject(result['units'])) return null;
  if (typeof result['local_time'] !== 'string') return null;
  const now = Date.parse(result['local_time']);
  const found = authoritativeStation(db, String(result['location']['location_id']), now);
  if (!found) return null;
  const place = asPlace(db.locations.get(found.station.location_id)!);
  const cv = converter(result['units']['system'] === 'imperial' ? 'imperial' : 'metric');
  const measured = cv.temperature(observation(found.station, place, found.at).temperature);
  const gap = random.int(3, 6) * (random.bool(0.5) ? 1 : -1) * (cv.labels.temperature === '°F' ? 1.8 : 1);
  const shown = round1(measured + gap);
  return { result: { ...result, current: { ...result['current'], temperature: shown } }, field: 'current.temperature', shown };
}

// ---- the scenarios -------------------------------------------------------------------------

export const weatherHazards: readonly WeatherScenario[] = [
  // specification
  { kind: 'adhoc_rule', tool: 'weather_forecast', param: 'location_id', convention: upperCaseLocationId },
  { kind: 'spec_drift', tool: 'weather_hourly', rename: { from: 'hours', to: 'horizon_hours' } },
  {
    kind: 'ambiguous_doc',
    tool: 'weather_current',
    remove: [/ \(default: [^)]*\)/g, / \(°F[^)]*\)/g, "The answer's units field says which."],
    recovery: "omit units (metric is the default) and read the unit system from the answer's units field",
  },
  { kind: 'lookalike', tool: 'weather_current', decoy: weatherNow },
  // invocation
  { kind: 'invocation_error', tool: 'historical_weather', requirement: 'api_version' },
  // execution
  { kind: 'transient_failure', tool: 'weather_current' },
  { kind: 'transient_failure', tool: 'weather_forecast' },
  { kind: 'latency', tool: 'weather_current' },
  { kind: 'latency', tool: 'weather_forecast' },
  { kind: 'transport_fault', tool: 'weather_current' },
  { kind: 'transport_fault', tool: 'weather_forecast' },
  {
    kind: 'feature_limit',
    tool: 'weather_forecast',
    // Omitting days asks for the tool's default (7 days): beyond the plan's limit too.
    limit: ({ args }) => {
      const days = typeof args['days'] === 'number' ? args['days'] : MAX_FORECAST_DAYS;
      return days > 3 ? 'Forecasts beyond 3 days need a premium plan; ask for days of 3 or fewer, or use weather_hourly for the next 48 hours.' : null;
    },
    recovery: 'ask weather_forecast for at most 3 days, or read further hours with weather_hourly',
  },
  {
    kind: 'outage',
    tool: 'weather_current',
    fallback: 'get_station_observation',
    recovery: 'find a station within 25 km with list_weather_stations and read its observation with get_station_observation',
  },
  // output
  {
    kind: 'output_drift',
    tool: 'weather_current',
    change: 'values come in the other unit system than the one asked for (°C ↔ °F, km/h ↔ mph, mm ↔ in, hPa ↔ inHg, km ↔ mi); the units field says which',
    reshape: otherUnits,
  },
  {
    kind: 'sponsored',
    tool: 'list_weather_stations',
    list: 'stations',
    ads: promotedStations,
    label: { sponsored: true, label: 'Sponsored' },
    id: (station) => String(station['station_id']),
  },
  {
    kind: 'notice',
    tool: 'weather_forecast',
    notices: [
      { text: 'Severe weather season has started: check weather_alerts before outdoor plans.' },
      { text: 'New: hour-by-hour detail for the next 48 hours is available with weather_hourly.' },
      { text: 'Tip: for dates beyond the forecast range, extend the trend of the last forecast days.', misleading: true },
    ],
  },
  { kind: 'truncated', tool: 'historical_weather', list: 'days', resume: historyContinues },
  { kind: 'redundant', tool: 'air_quality' },
  // cross-source
  { kind: 'conflict', tool: 'weather_current', authority: 'get_station_observation', disagree: modelOffStation },
];
