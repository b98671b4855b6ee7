import { PM25_BREAKPOINTS, airQualityIndex, pollutantsAt, subIndex } from './air.js';
import { placeSite } from './db.js';
import { type Conditions, conditionsAt, midMonthDoy, normalTemp } from './model.js';
import { type Converter, localTime } from './present.js';
import type { Place } from './schema.js';
import { HOUR, startOfLocalHour } from '../../lib/time.js';

// Alerts follow the data: each kind is a test on the model's hourly states at the place, and an
// alert spans a run of hours that pass it (gaps of one hour allowed), from its onset to its expiry.

export const ALERT_KINDS = ['heat', 'extreme_cold', 'wind', 'thunderstorm', 'heavy_rain', 'winter_storm', 'air_quality'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
export const SEVERITIES = ['moderate', 'severe', 'extreme'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** How far ahead alerts are issued. */
export const ALERT_HORIZON_HOURS = 48;
/** How far back an ongoing event is traced to find its onset. */
const LOOKBACK_HOURS = 72;

interface HourState {
  at: number;
  weather: Conditions;
  aqi: number;
}

interface Rule {
  kind: AlertKind;
  /** Hours without the hazard that do not end an event (default 1). */
  gap?: number;
  /** The hour's measure of the hazard, or null when the hour does not qualify. */
  measure(state: HourState): number | null;
  severity(peak: number): Severity;
  event(severity: Severity): string;
  describe(peak: number, convert: Converter): string;
}

/** The heat and cold thresholds of a place: relative to its own climate, never below absolute floors. */
export function thresholds(place: Place): { heat: number; cold: number; aqi: number } {
  const { climate, elevation_m } = place;
  const warm = normalTemp(climate, elevation_m, midMonthDoy(climate.warmest_month));
  const coldMonth = ((climate.warmest_month + 5) % 12) + 1;
  const cold = normalTemp(climate, elevation_m, midMonthDoy(coldMonth));
  const halfSwing = climate.diurnal_range_c / 2;
  const usualAqi = subIndex(PM25_BREAKPOINTS, climate.pm25_ugm3);
  return { heat: Math.max(32, warm + halfSwing + 1.5), cold: Math.min(-25, cold - halfSwing - 15), aqi: Math.max(151, usualAqi + 50) };
}

function rules(place: Place): Rule[] {
  const limits = thresholds(place);
  const temp = (c: Converter, value: number) => `${c.temperature(value)} ${c.labels.temperature}`;
  const speed = (c: Converter, value: number) => `${c.speed(value)} ${c.labels.wind_speed}`;
  return [
    {
      kind: 'heat',
      measure: ({ weather }) => (weather.temperature >= limits.heat ? weather.feelsLike : null),
      severity: (peak) => (peak >= limits.heat + 8 ? 'extreme' : peak >= limits.heat + 3 ? 'severe' : 'moderate'),
      event: (s) => (s === 'moderate' ? 'Heat Advisory' : 'Excessive Heat Warning'),
      describe: (peak, c) =>
        `Temperatures at or above ${temp(c, limits.heat)}, unusually hot for ${place.name}; apparent temperature up to ${temp(c, peak)}. ` +
        'Drink water, avoid strenuous activity in the afternoon, check on vulnerable people.',
    },
    {
      kind: 'extreme_cold',
      measure: ({ weather }) => (weather.feelsLike <= limits.cold ? weather.feelsLike : null),
      severity: (peak) => (peak <= limits.cold - 10 ? 'extreme' : peak <= limits.cold - 5 ? 'severe' : 'moderate'),
      event: (s) => (s === 'moderate' ? 'Cold Weather Advisory' : 'Extreme Cold Warning'),
      describe: (peak, c) => `Wind chill as low as ${temp(c, peak)}. Frostbite can occur on exposed skin within minutes; limit time outdoors.`,
    },
    {
      kind: 'wind',
      measure: ({ weather }) => (weather.gust >= 70 && weather.condition !== 'thunderstorm' ? weather.gust : null),
      severity: (peak) => (peak >= 110 ? 'extreme' : peak >= 90 ? 'severe' : 'moderate'),
      event: (s) => (s === 'moderate' ? 'Wind Advisory' : 'High Wind Warning'),
      describe: (peak, c) => `Gusts up to ${speed(c, peak)}. Secure loose objects; falling branches and power outages are possible.`,
    },
    {
      kind: 'thunderstorm',
      measure: ({ weather }) => (weather.condition === 'thunderstorm' && weather.gust >= 55 ? weather.gust : null),
      severity: (peak) => (peak >= 90 ? 'extreme' : 'severe'),
      event: () => 'Severe Thunderstorm Warning',
      describe: (peak, c) => `Thunderstorms with gusts up to ${speed(c, peak)}, heavy downpours and lightning. Move indoors.`,
    },
    {
      kind: 'heavy_rain',
      measure: ({ weather }) => (weather.snow === 0 && weather.precip >= 10 ? weather.precip : null),
      severity: (peak) => (peak >= 40 ? 'extreme' : peak >= 25 ? 'severe' : 'moderate'),
      event: (s) => (s === 'moderate' ? 'Flood Watch' : 'Flash Flood Warning'),
      describe: (peak, c) =>
        `Rainfall rates up to ${c.precipitation(peak)} ${c.labels.precipitation} per hour. Flooding of streets and low-lying areas is possible.`,
    },
    {
      kind: 'winter_storm',
      measure: ({ weather }) => (weather.snow >= 1.5 ? weather.snow : null),
      severity: (peak) => (peak >= 5 ? 'extreme' : peak >= 3 ? 'severe' : 'moderate'),
      event: (s) => (s === 'moderate' ? 'Winter Weather Advisory' : 'Winter Storm Warning'),
      describe: (peak, c) => `Snowfall rates up to ${c.snowfall(peak)} ${c.labels.snowfall} per hour. Travel will be difficult.`,
    },
    {
      kind: 'air_quality',
      gap: 6,
      measure: ({ aqi }) => (aqi >= limits.aqi ? aqi : null),
      severity: (peak) => (peak >= 301 ? 'extreme' : peak >= 201 ? 'severe' : 'moderate'),
      event: () => 'Air Quality Alert',
      describe: (peak) =>
        `Air quality index up to ${peak} (unhealthy or worse, and well above what is usual for ${place.name}). Everyone should ` +
        'limit prolonged outdoor exertion; sensitive groups should stay indoors.',
    },
  ];
}

export interface Alert {
  id: string;
  kind: AlertKind;
  event: string;
  severity: Severity;
  status: 'active' | 'upcoming';
  issued_at: string;
  onset: string;
  expires: string;
  headline: string;
  description: string;
  location_id: string;
  area: string;
  /** Instants, for sorting. */
  onsetMs: number;
  expiresMs: number;
}

const compactUtc = (ms: number) => `${new Date(ms).toISOString().slice(0, 13).replace(/[-:]/g, '')}Z`;

/** Alerts at the place that are in effect at `now` or begin within the next 48 hours. */
export function alertsFor(place: Place, now: number, convert: Converter): Alert[] {
  const site = placeSite(place);
  const cache = new Map<number, HourState>();
  const state = (at: number): HourState => {
    let found = cache.get(at);
    if (!found) {
      const weather = conditionsAt(site, at);
      found = { at, weather, aqi: airQualityIndex(pollutantsAt(site, weather)).aqi };
      cache.set(at, found);
    }
    return found;
  };
  const first = startOfLocalHour(place.timezone, now);
  const horizon = first + ALERT_HORIZON_HOURS * HOUR;
  const alerts: Alert[] = [];
  for (const rule of rules(place)) {
    const qualifies = (at: number) => rule.measure(state(at)) !== null;
    const gap = rule.gap ?? 1;
    /** The next qualifying hour within the gap tolerance in direction `step`, or null. */
    const next = (from: number, step: number): number | null => {
      for (let i = 1; i <= gap + 1; i++) if (qualifies(from + i * step)) return from + i * step;
      return null;
    };
    let at = first;
    while (at <= horizon) {
      if (!qualifies(at)) {
        at += HOUR;
        continue;
      }
      // Trace the event back to its onset, then forward to its end (short lulls do not end it).
      let start = at;
      for (let before = next(start, -HOUR); before !== null && before > first - LOOKBACK_HOURS * HOUR; before = next(start, -HOUR)) start = before;
      let end = at;
      for (let after = next(end, HOUR); after !== null; after = next(end, HOUR)) end = after;
      let peak = -Infinity;
      let low = Infinity;
      for (let h = start; h <= end; h += HOUR) {
        const value = rule.measure(state(h));
        if (value !== null) {
          peak = Math.max(peak, value);
          low = Math.min(low, value);
        }
      }
      const worst = rule.kind === 'extreme_cold' ? low : peak;
      const severity = rule.severity(worst);
      const event = rule.event(severity);
      const expiresMs = end + HOUR;
      if (expiresMs > now) {
        alerts.push({
          id: `${rule.kind.toUpperCase().replace('_', '')}-${place.id}-${compactUtc(start)}`,
          kind: rule.kind,
          event,
          severity,
          status: start <= now ? 'active' : 'upcoming',
          // Issued when it came within the feed's horizon.
          issued_at: localTime(place, start - ALERT_HORIZON_HOURS * HOUR),
          onset: localTime(place, start),
          expires: localTime(place, expiresMs),
          headline: `${event} for ${place.name}, ${place.region} until ${localTime(place, expiresMs)}`,
          description: rule.describe(worst, convert),
          location_id: place.id,
          area: `${place.name}, ${place.region}, ${place.country}`,
          onsetMs: start,
          expiresMs,
        });
      }
      at = end + (gap + 2) * HOUR;
    }
  }
  return alerts.sort((a, b) => a.onsetMs - b.onsetMs || (a.id < b.id ? -1 : 1));
}

/** The alerts of several places at `now`, as weather_alerts lists them: by onset, without the sorting instants. */
export function alertsAt(places: readonly Place[], now: number, convert: Converter): Omit<Alert, 'onsetMs' | 'expiresMs'>[] {
  return places
    .flatMap((place) => alertsFor(place, now, convert))
    .sort((a, b) => a.onsetMs - b.onsetMs || (a.id < b.id ? -1 : 1))
    .map(({ onsetMs: _onset, expiresMs: _expires, ...alert }) => alert);
}
