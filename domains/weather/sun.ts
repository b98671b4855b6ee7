import { DAY, MINUTE, dayOfYear, splitDate } from '../../lib/time.js';

// The sun's position from NOAA's general solar position equations (accurate to a minute or two
// for sunrise and sunset between the polar circles), from latitude, longitude and an instant.

const RAD = Math.PI / 180;

/** Zenith angles of the events: sunrise/sunset (with refraction and the disc) and civil twilight. */
export const SUNRISE_ZENITH = 90.833;
export const CIVIL_ZENITH = 96;

interface SolarTerms {
  /** Equation of time, minutes. */
  eqTime: number;
  /** Declination, radians. */
  decl: number;
}

function terms(ms: number): SolarTerms {
  const year = new Date(ms).getUTCFullYear();
  const daysInYear = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 366 : 365;
  const g = ((2 * Math.PI) / daysInYear) * (dayOfYear(ms) - 1.5);
  const eqTime = 229.18 * (0.000075 + 0.001868 * Math.cos(g) - 0.032077 * Math.sin(g) - 0.014615 * Math.cos(2 * g) - 0.040849 * Math.sin(2 * g));
  const decl =
    0.006918 -
    0.399912 * Math.cos(g) +
    0.070257 * Math.sin(g) -
    0.006758 * Math.cos(2 * g) +
    0.000907 * Math.sin(2 * g) -
    0.002697 * Math.cos(3 * g) +
    0.00148 * Math.sin(3 * g);
  return { eqTime, decl };
}

/** Local apparent solar time at the instant, in hours [0, 24). */
export function solarHour(lon: number, ms: number): number {
  const utcMinutes = (((ms % DAY) + DAY) % DAY) / MINUTE;
  const tst = utcMinutes + terms(ms).eqTime + 4 * lon;
  return (((tst / 60) % 24) + 24) % 24;
}

/** Cosine of the solar zenith angle at the instant (negative when the sun is down). */
export function cosZenith(lat: number, lon: number, ms: number): number {
  const { decl } = terms(ms);
  const hourAngle = (solarHour(lon, ms) * 15 - 180) * RAD;
  const phi = lat * RAD;
  return Math.sin(phi) * Math.sin(decl) + Math.cos(phi) * Math.cos(decl) * Math.cos(hourAngle);
}

/** Solar elevation in degrees at the instant. */
export function solarElevation(lat: number, lon: number, ms: number): number {
  return 90 - Math.acos(Math.max(-1, Math.min(1, cosZenith(lat, lon, ms)))) / RAD;
}

/**
 * Half the length of the day, in hours of solar time, for the zenith: 0 when the sun never gets
 * above it (polar night), 12 when it never goes below it (polar day).
 */
export function halfDayHours(lat: number, ms: number, zenith = SUNRISE_ZENITH): number {
  const { decl } = terms(ms);
  const phi = lat * RAD;
  const cosH = (Math.cos(zenith * RAD) - Math.sin(phi) * Math.sin(decl)) / (Math.cos(phi) * Math.cos(decl));
  if (cosH >= 1) return 0;
  if (cosH <= -1) return 12;
  return Math.acos(cosH) / RAD / 15;
}

/** The sun's highest elevation of the day of the instant, in degrees. */
export function noonElevation(lat: number, ms: number): number {
  return 90 - Math.abs(lat - terms(ms).decl / RAD);
}

export interface SunEvents {
  /** Instants in epoch ms; null when the event does not happen that day. */
  sunrise: number | null;
  sunset: number | null;
  solarNoon: number;
  civilDawn: number | null;
  civilDusk: number | null;
  /** Minutes between sunrise and sunset (0 in polar night, 1440 in polar day). */
  daylightMinutes: number;
  polar: 'polar_day' | 'polar_night' | null;
}

/** Times of the event pair for the zenith, refined once at the events' own times. */
function eventPair(
  lat: number,
  lon: number,
  date: string,
  zenith: number,
): { rise: number | null; set: number | null; state: 'day' | 'night' | 'normal'; noon: number } {
  const [y, m, d] = splitDate(date);
  const base = Date.UTC(y, m - 1, d);
  const noonAt = (ms: number) => base + (720 - 4 * lon - terms(ms).eqTime) * MINUTE;
  const noon = noonAt(noonAt(base + 12 * 3_600_000));
  const half = halfDayHours(lat, noon, zenith);
  if (half === 0) return { rise: null, set: null, state: 'night', noon };
  if (half === 12) return { rise: null, set: null, state: 'day', noon };
  const refine = (sign: -1 | 1) => {
    const first = noon + sign * half * 3_600_000;
    const h = halfDayHours(lat, first, zenith);
    return h === 0 || h === 12 ? first : noonAt(first) + sign * h * 3_600_000;
  };
  return { rise: refine(-1), set: refine(1), state: 'normal', noon };
}

/** Sunrise, sunset, solar noon and civil twilight of a local date at a place. */
export function sunEvents(lat: number, lon: number, date: string): SunEvents {
  const sun = eventPair(lat, lon, date, SUNRISE_ZENITH);
  const civil = eventPair(lat, lon, date, CIVIL_ZENITH);
  const daylightMinutes = sun.state === 'day' ? 1440 : sun.state === 'night' ? 0 : Math.round(((sun.set as number) - (sun.rise as number)) / MINUTE);
  return {
    sunrise: sun.rise,
    sunset: sun.set,
    solarNoon: sun.noon,
    civilDawn: civil.rise,
    civilDusk: civil.set,
    daylightMinutes,
    polar: sun.state === 'day' ? 'polar_day' : sun.state === 'night' ? 'polar_night' : null,
  };
}
