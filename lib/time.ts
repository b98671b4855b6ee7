// Civil time in an IANA time zone, from an instant: the calendar comes from Intl (the time-zone
// rules bundled with Node), never from the machine's clock or zone. Shared by the weather domain
// (local days and hours of a place) and the airline (airport wall clocks).

export const MINUTE = 60_000;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;

export interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** Offset from UTC in minutes, e.g. -300 for UTC-05:00. */
  offsetMin: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

/** True when Intl knows the zone. */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock reading in `timeZone` at the instant `ms`. */
export function localParts(timeZone: string, ms: number): LocalParts {
  const at = Math.floor(ms / 1000) * 1000;
  const fields: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(at)) {
    if (part.type !== 'literal') fields[part.type] = Number(part.value);
  }
  const { year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0 } = fields;
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  return { year, month, day, hour, minute, second, offsetMin: Math.round((asUtc - at) / MINUTE) };
}

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');

/** An offset from UTC in minutes as ISO 8601 writes it: -300 → '-05:00', 0 → '+00:00'. */
export function formatOffset(offsetMin: number): string {
  const sign = offsetMin < 0 ? '-' : '+';
  return `${sign}${pad(Math.floor(Math.abs(offsetMin) / 60))}:${pad(Math.abs(offsetMin) % 60)}`;
}

/** ISO 8601 local time with its offset, to the minute's second: '2024-05-15T15:00:00-05:00'. */
export function formatLocal(timeZone: string, ms: number): string {
  const p = localParts(timeZone, ms);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}${formatOffset(p.offsetMin)}`;
}

/** The local calendar date at the instant: 'YYYY-MM-DD'. */
export function localDate(timeZone: string, ms: number): string {
  const p = localParts(timeZone, ms);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`;
}

/** 'YYYY-MM-DD' → [year, month, day]. */
export function splitDate(date: string): [number, number, number] {
  const [y = 0, m = 1, d = 1] = date.split('-').map(Number);
  return [y, m, d];
}

/** The date `days` after (or before) `date`. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = splitDate(date);
  return new Date(Date.UTC(y, m - 1, d) + days * DAY).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  const [y1, m1, d1] = splitDate(from);
  const [y2, m2, d2] = splitDate(to);
  return Math.round((Date.UTC(y2, m2 - 1, d2) - Date.UTC(y1, m1 - 1, d1)) / DAY);
}

/** The instant a wall-clock time 'YYYY-MM-DDTHH:MM:SS' (or a date alone, its midnight) stands for in `timeZone`. */
export function instantOfLocal(timeZone: string, local: string): number {
  const [date = '', clock = ''] = local.split('T');
  const [y, mo, d] = splitDate(date);
  const [h = 0, m = 0, s = 0] = clock === '' ? [] : clock.split(':').map(Number);
  const wall = Date.UTC(y, mo - 1, d, h, m, s);
  // Two passes settle the offset, also on the days the offset changes.
  let guess = wall - localParts(timeZone, wall).offsetMin * MINUTE;
  guess = wall - localParts(timeZone, guess).offsetMin * MINUTE;
  return guess;
}

/** The instant of local midnight starting `date` in `timeZone`. */
export const startOfLocalDay = (timeZone: string, date: string): number => instantOfLocal(timeZone, date);

/** The hourly instants of a local day (23, 24 or 25 of them), from its midnight. */
export function hoursOfLocalDay(timeZone: string, date: string): number[] {
  const start = startOfLocalDay(timeZone, date);
  const end = startOfLocalDay(timeZone, addDays(date, 1));
  const hours: number[] = [];
  for (let at = start; at < end; at += HOUR) hours.push(at);
  return hours;
}

/** Day of the year (1–366) of a UTC instant, with the fraction of the day. */
export function dayOfYear(ms: number): number {
  const date = new Date(ms);
  const start = Date.UTC(date.getUTCFullYear(), 0, 1);
  return 1 + (ms - start) / DAY;
}

export const floorTo = (ms: number, step: number) => Math.floor(ms / step) * step;

/** The start of the local hour holding the instant (zones with half-hour offsets included). */
export function startOfLocalHour(timeZone: string, ms: number): number {
  const offset = localParts(timeZone, ms).offsetMin * MINUTE;
  return floorTo(ms + offset, HOUR) - offset;
}
