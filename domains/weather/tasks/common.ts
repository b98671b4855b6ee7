import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import type { Random } from '../../../lib/random.js';
import { MINUTE, addDays, localDate, localParts } from '../../../lib/time.js';
import { NoInstance, type Solver } from '../../task.js';
import { SEVERITIES, alertsAt } from '../alerts.js';
import { asPlace, distanceKm, type WeatherDb } from '../db.js';
import { AUTHORITATIVE_AGE_MIN, AUTHORITATIVE_KM } from '../hazards/index.js';
import { dailyMeanIndex, laggingAlerts } from '../hazards/output.js';
import { weatherNow } from '../hazards/specification.js';
import { CONDITIONS } from '../model.js';
import { converter } from '../present.js';
import type { Place } from '../schema.js';
import { latestReport } from '../stations.js';
import { weatherTools } from '../tools/index.js';

// What weather's templates share: how a place is named in a request, the tools run at the instance's
// "now" (for picking what a task needs), the policy's test of a station, and the answer fields that
// several tasks use.

export type WeatherSolver = Solver<typeof weatherTools>;

/** Every place of the world, with its climate. */
export const placesOf = (db: WeatherDb): Place[] => [...db.locations.values()].map(asPlace);

/** The places of each US state, by the state's name. */
export function usStates(db: WeatherDb): [state: string, places: Place[]][] {
  const states = new Map<string, Place[]>();
  for (const place of placesOf(db)) if (place.country_code === 'US') states.set(place.region, [...(states.get(place.region) ?? []), place]);
  return [...states];
}

/** A place as the request names it: its name, with its state or region when its country has another place of that name. */
export interface NamedPlace {
  name: string;
  /** The state, province or region, named when it tells the place apart (and for places in the United States). */
  region?: string;
  country: string;
}

export function named(db: WeatherDb, place: Place): NamedPlace {
  const shared = placesOf(db).some((other) => other.id !== place.id && other.name === place.name && other.country_code === place.country_code);
  return { name: place.name, ...(shared || place.country_code === 'US' ? { region: place.region } : {}), country: place.country };
}

/** The place in the user's words: 'Portland, Oregon', 'Tokyo, Japan', 'Singapore'. */
export const words = (place: NamedPlace): string =>
  place.region ? `${place.name}, ${place.region}` : place.name === place.country ? place.name : `${place.name}, ${place.country}`;

/** The place's id, as geocode_location resolves the name the request gives. */
export function locate(tools: WeatherSolver, place: NamedPlace): string {
  const found = tools.geocode_location({ query: place.name, country: place.country, ...(place.region ? { region: place.region } : {}) });
  return found.matches[0]!.location_id;
}

/** A weather tool run on the instance's database at an instant: what a call at that time answers, hazard-free. */
export function runAt<N extends (typeof weatherTools)[number]['name']>(
  db: WeatherDb,
  at: Date,
  name: N,
  args: z.input<Extract<(typeof weatherTools)[number], { name: N }>['input']>,
): z.output<Extract<(typeof weatherTools)[number], { name: N }>['output']> {
  const tool = weatherTools.find((t) => t.name === name)!;
  const parsed = tool.input.parse(args);
  // biome-ignore lint/suspicious/noExplicitAny: the tool is the one named, its arguments parsed by its own schema
  return (tool.run as any)(parsed, db, { session: 'pick', now: () => at, compat: 'off' });
}

/** How long after the session starts an agent's calls may come: a pick holds over this span. */
export const SPAN_MS = 3 * MINUTE;

/** The instants a pick checks: the session's start, and the end of the span its calls may take. */
export const span = (now: Date) => [now.getTime(), now.getTime() + SPAN_MS];

/**
 * The station the policy takes for current conditions (a network station within 25 km that reported within
 * the hour): null when none qualifies, and undefined when that changes during the span (a report due, an
 * observation ageing past the hour), which a pick avoids.
 */
export function stationFor(db: WeatherDb, location_id: string, now: Date): { station_id: string; at: number } | null | undefined {
  const place = db.locations.get(location_id)!;
  // The policy's test, as authoritativeStation (hazards/sources.ts) makes it, on the stations near enough.
  const near = [...db.stations.values()]
    .map((station) => ({ station, distance: distanceKm(place.lat, place.lon, station.lat, station.lon) }))
    .filter(({ distance }) => distance <= AUTHORITATIVE_KM)
    .sort((a, b) => a.distance - b.distance || (a.station.id < b.station.id ? -1 : 1));
  const [first, last] = span(now).map((at) => {
    for (const { station } of near) {
      const report = latestReport(station, at);
      if (report !== null && at - report <= AUTHORITATIVE_AGE_MIN * MINUTE) return { station_id: station.id, at: report };
    }
    return null;
  });
  if (!first || !last) return first || last ? undefined : null;
  return first.station_id === last.station_id && first.at === last.at ? first : undefined;
}

/** Places where no station qualifies, steadily over the span: weather_current (the model) answers for now. */
export const modelPlaces = (db: WeatherDb, now: Date): Place[] => placesOf(db).filter((place) => stationFor(db, place.id, now) === null);

/** Places where a station qualifies, steadily over the span. */
export const stationPlaces = (db: WeatherDb, now: Date): Place[] => placesOf(db).filter((place) => stationFor(db, place.id, now));

/**
 * Places to ask "what is it like now" about, where the model's nowcast is the answer: first places where no
 * station qualifies (weather_current is what the policy quotes; their hours start on the nowcast's step, so
 * the hourly forecast's first hour is the same estimate). A world has a few of them; where it has too few,
 * the rest are places whose qualifying station agrees with the model (same condition, a temperature within
 * 0.1 °C, or 0.15 °F): there the measurement and the estimate are the same answer. `where` tells which
 * places suit the task best, `apart` which pairs are needed.
 */
export function pickNow(
  db: WeatherDb,
  random: Random,
  now: Date,
  {
    count = 1,
    units = 'metric',
    where = () => true,
    apart = () => true,
  }: { count?: 1 | 2; units?: 'metric' | 'imperial'; where?: (place: Place) => boolean; apart?: (a: Place, b: Place) => boolean } = {},
): Place[] {
  const within = units === 'metric' ? 0.1 : 0.15;
  const agrees = (place: Place) => {
    const seen = runAt(db, now, 'get_station_observation', { station_id: stationFor(db, place.id, now)!.station_id, units }).observation;
    const estimate = runAt(db, now, 'weather_current', { location_id: place.id, units }).current;
    return seen.condition === estimate.condition && Math.abs(seen.temperature - estimate.temperature) <= within;
  };
  const model = random.shuffle(modelPlaces(db, now).filter((place) => wholeHours(place, now)));
  let agreeing: Place[] | undefined;
  const others = () => (agreeing ??= random.shuffle(stationPlaces(db, now).filter((place) => wholeHours(place, now) && agrees(place))));
  // In order of preference: places without a qualifying station that suit the task, places whose station
  // agrees with the model that suit it, then any of either (a world with too few that suit it).
  const tiers = [() => model.filter(where), () => others().filter(where), () => [...model, ...others()]];
  if (count === 1) {
    for (const tier of tiers) {
      const found = tier()[0];
      if (found) return [found];
    }
    throw new NoInstance('no place where the model answers for now');
  }
  for (let last = 0; last < tiers.length; last++) {
    for (let first = 0; first <= last; first++) {
      for (const a of tiers[first]!()) {
        for (const b of tiers[last]!()) if (a.id !== b.id && apart(a, b)) return random.shuffle([a, b]);
      }
    }
  }
  throw new NoInstance('no two places where the model answers for now');
}

/** True when the place's local hours start on the UTC hour (no half-hour offset): its hourly forecast's first hour is the nowcast's time. */
export const wholeHours = (place: Place, now: Date): boolean => localParts(place.timezone, now.getTime()).offsetMin % 60 === 0;

/** The local date at the place. */
export const today = (place: Place, now: Date): string => localDate(place.timezone, now.getTime());

/** Picks from candidates, naming the task and what it looked for when there are none. */
export function pickFrom<T>(random: Random, items: readonly T[], what: string): T {
  if (items.length === 0) throw new NoInstance(`no ${what}`);
  return random.pick(items);
}

/** Picks `count` distinct items. */
export function pickSome<T>(random: Random, items: readonly T[], count: number, what: string): T[] {
  if (items.length < count) throw new NoInstance(`fewer than ${count} ${what}`);
  return random.sample(items, count);
}

// ---- current conditions, as the policy has them --------------------------------------------------

export interface Now {
  temperature: number;
  condition: (typeof CONDITIONS)[number];
  source: 'station' | 'model';
  station_id: string | null;
}

/** What it is like now at the place, as the policy says: the nearest qualifying network station, else the model's nowcast. */
export function conditionsNow(tools: WeatherSolver, location_id: string, units: 'metric' | 'imperial' = 'metric'): Now {
  const listing = tools.list_weather_stations({ location_id });
  const station = listing.stations.find(
    (s) => s.provider === 'network' && s.distance_km <= 25 && s.minutes_since_report !== null && s.minutes_since_report <= 60,
  );
  if (station) {
    const seen = tools.get_station_observation({ station_id: station.station_id, units });
    return { temperature: seen.observation.temperature, condition: seen.observation.condition, source: 'station', station_id: station.station_id };
  }
  const current = tools.weather_current({ location_id, units });
  return { temperature: current.current.temperature, condition: current.current.condition, source: 'model', station_id: null };
}

// ---- alerts ----------------------------------------------------------------------------------------

/** Whether the alert feed of these places, read from a lagging copy (the stale_data scenario), would show an alert as it no longer is, over the whole span. */
export function alertsSeenLate(db: WeatherDb, places: readonly Place[], now: Date): boolean {
  const metric = { system: 'metric' };
  return span(now).every((at) => laggingAlerts({ result: { location_ids: places.map((p) => p.id), units: metric }, db, now: new Date(at) } as never) !== null);
}

/** The alerts of places at `now`, as weather_alerts lists them. */
export const alertsOf = (places: readonly Place[], now: Date) => alertsAt(places, now.getTime(), converter('metric'));

const LOCAL_DATE = 'local date at the place, YYYY-MM-DD';
const LOCAL_TIME = 'local time at the place, HH:MM (24-hour)';

/** One alert as the user needs it relayed: what, how bad, whether in effect, from when to when (local time). */
export const alertFields = {
  event: field.text("The alert's name, e.g. 'Heat Advisory'."),
  severity: field.choice(SEVERITIES, "The alert's severity."),
  status: field.choice(['active', 'upcoming'], 'active: in effect now; upcoming: begins later.'),
  onset_date: field.date(`When it begins: the ${LOCAL_DATE}.`),
  onset_time: field.time(`When it begins: the ${LOCAL_TIME}.`),
  expires_date: field.date(`When it ends: the ${LOCAL_DATE}.`),
  expires_time: field.time(`When it ends: the ${LOCAL_TIME}.`),
};
export const Alert = z.strictObject(alertFields);
export type Alert = z.output<typeof Alert>;

/** An alert of weather_alerts' answer, as the answer holds it. */
export function alertOf(alert: { event: string; severity: (typeof SEVERITIES)[number]; status: 'active' | 'upcoming'; onset: string; expires: string }): Alert {
  return {
    event: alert.event,
    severity: alert.severity,
    status: alert.status,
    onset_date: alert.onset.slice(0, 10),
    onset_time: alert.onset.slice(11, 16),
    expires_date: alert.expires.slice(0, 10),
    expires_time: alert.expires.slice(11, 16),
  };
}

// ---- numbers -----------------------------------------------------------------------------------------

/** A sum of values given to one decimal, to one decimal (float noise aside). */
export const sum1 = (values: readonly number[]): number => values.reduce((tenths, value) => tenths + Math.round(value * 10), 0) / 10;

/** Temperatures read straight from a tool, to one decimal. */
export const celsius = (description: string) => field.number(`${description} In °C, to one decimal, as the tool gives it.`, 0.05);

/** Current temperatures, which may come in another unit and be converted: to one decimal, within 0.2 °C (0.3 °F). */
export const nowIn = (unit: '°C' | '°F', description: string) => field.number(`${description} In ${unit}, to one decimal.`, unit === '°C' ? 0.2 : 0.3);

export const conditionField = field.choice(CONDITIONS, "The weather condition code, as the tools give it in 'condition' (e.g. 'partly_cloudy').");

/** The temperature weather_now (the deprecated look-alike of weather_current) would give at `now`, in °C. */
export function lookalikeTemperature(db: WeatherDb, location_id: string, now: Date): number {
  // biome-ignore lint/suspicious/noExplicitAny: the decoy's output is a loose object
  return (weatherNow.run as any)({ location_id }, db, { session: 'pick', now: () => now, compat: 'off' }).temperature_c;
}

/** The model's temperature now at a place, in °C, as weather_current gives it. */
export const modelTemperature = (db: WeatherDb, location_id: string, now: Date): number =>
  runAt(db, now, 'weather_current', { location_id }).current.temperature;

/** The temperature a station's latest observation gives, in °C, as get_station_observation shows it. */
export const observedTemperature = (db: WeatherDb, found: { station_id: string }, now: Date): number =>
  runAt(db, now, 'get_station_observation', { station_id: found.station_id }).observation.temperature;

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** A date as people say it: 'May 1', or 'May 1, 2024' with the year. */
export function spoken(date: string, year = false): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return `${MONTHS[m - 1]} ${d}${year ? `, ${y}` : ''}`;
}

/** A month as people say it: 'April 2024'. */
export const spokenMonth = (month: string): string => `${MONTHS[Number(month.slice(5, 7)) - 1]} ${month.slice(0, 4)}`;

/** A forecast day as several answers hold it. */
export const ForecastDay = z.strictObject({
  date: field.date('The day (local date), YYYY-MM-DD.'),
  high_c: celsius("The day's forecast high."),
  low_c: celsius("The day's forecast low."),
});

/** Tomorrow's date at the place of a forecast: the day after the local date it was issued on. */
export const tomorrowOf = (forecast: { issued_at: string }): string => addDays(forecast.issued_at.slice(0, 10), 1);

/** The air quality index now at a place and the 24-hour mean index an aggregator would show beside it. */
export function airIndexes(db: WeatherDb, location_id: string, now: Date): { aqi: number; mean: number } {
  const answer = runAt(db, now, 'air_quality', { location_id, days: 1 });
  const shadow = dailyMeanIndex({ result: answer, db } as never) as { summary: { aqi: number } } | null;
  return { aqi: answer.aqi, mean: shadow?.summary.aqi ?? answer.aqi };
}
