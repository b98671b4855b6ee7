import { z } from 'zod';
import { toolError } from '../errors.js';
import { SMART_HOME_ERRORS } from './errors.js';
import { addDays, formatLocal, instantOfLocal, localDate, splitDate } from '../../lib/time.js';
import { Alarm, type ALARM_RECURRENCES, type Home } from './schema.js';

// Alarm times are wall-clock times at the home: 'YYYY-MM-DDTHH:MM[:SS]' for a given day, or 'HH:MM[:SS]' for
// the next such time. A recurring alarm rings on the days of its recurrence; its `time` is the next ring.

type Recurrence = (typeof ALARM_RECURRENCES)[number];

export const ALARM_TIME_PATTERN = /^(?:(\d{4}-\d{2}-\d{2})T)?(\d{2}):(\d{2})(?::(\d{2}))?$/;

export interface WallTime {
  /** Absent for 'HH:MM': the next such time. */
  date?: string;
  /** 'HH:MM:SS'. */
  clock: string;
}

/** A wall time as written, or null when it is no time of a calendar (month 13, 25:00). */
export function parseAlarmTime(text: string): WallTime | null {
  const match = ALARM_TIME_PATTERN.exec(text);
  if (!match) return null;
  const [, date, h, m, s = '00'] = match;
  if (Number(h) > 23 || Number(m) > 59 || Number(s) > 59) return null;
  if (date !== undefined) {
    const [y, mo, d] = splitDate(date);
    const day = new Date(Date.UTC(y, mo - 1, d));
    if (day.getUTCFullYear() !== y || day.getUTCMonth() !== mo - 1 || day.getUTCDate() !== d) return null;
  }
  return { ...(date !== undefined ? { date } : {}), clock: `${h}:${m}:${s}` };
}

export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

export function weekdayOf(date: string): (typeof WEEKDAYS)[number] {
  const [y, m, d] = splitDate(date);
  return WEEKDAYS[new Date(Date.UTC(y, m - 1, d)).getUTCDay()]!;
}

/** True when an alarm of the recurrence rings on the date. */
export function ringsOn(recurrence: Recurrence, date: string): boolean {
  const day = weekdayOf(date);
  const weekend = day === 'Saturday' || day === 'Sunday';
  return recurrence === 'weekdays' ? !weekend : recurrence === 'weekends' ? weekend : true;
}

/** The next local date-time after `now` at the clock time, on a day of the recurrence. */
export function nextRing(timeZone: string, clock: string, recurrence: Recurrence, now: number): string {
  const today = localDate(timeZone, now);
  for (let i = 0; ; i++) {
    const local = `${addDays(today, i)}T${clock}`;
    if (ringsOn(recurrence, addDays(today, i)) && instantOfLocal(timeZone, local) > now) return local;
  }
}

/**
 * When an alarm set for `text` ('YYYY-MM-DDTHH:MM[:SS]' or 'HH:MM[:SS]', valid by the input schema) rings next, as a
 * local date-time at the home; refuses a given day in the past or outside the recurrence.
 */
export function ringTime(timeZone: string, text: string, recurrence: Recurrence, now: number): string {
  const wall = parseAlarmTime(text)!;
  if (wall.date === undefined) return nextRing(timeZone, wall.clock, recurrence, now);
  const local = `${wall.date}T${wall.clock}`;
  if (instantOfLocal(timeZone, local) <= now) {
    throw toolError(SMART_HOME_ERRORS.time_in_past, `${local} is in the past at the home (now ${formatLocal(timeZone, now).slice(0, 19)}, ${timeZone}).`);
  }
  if (!ringsOn(recurrence, wall.date)) {
    throw toolError(SMART_HOME_ERRORS.recurrence_mismatch, `${wall.date} is a ${weekdayOf(wall.date)}: a ${recurrence} alarm does not ring that day.`);
  }
  return local;
}

export const AlarmView = Alarm.extend({
  time: Alarm.shape.time.describe('When it rings next, wall-clock time at the home (YYYY-MM-DDTHH:MM:SS).'),
  weekday: z.enum(WEEKDAYS).describe('The day of the week it rings next.'),
  rings_at: z.string().describe('The same time in ISO 8601 with the offset of the home at that time.'),
});

/** An alarm as the alarm tools answer it: with the weekday it rings next and that time with its offset. */
export const alarmView = (alarm: Alarm, home: Home | undefined): z.infer<typeof AlarmView> => {
  const timeZone = home?.timezone ?? 'UTC';
  return { ...alarm, weekday: weekdayOf(alarm.time.slice(0, 10)), rings_at: formatLocal(timeZone, instantOfLocal(timeZone, alarm.time)) };
};
