import { z } from 'zod';
import { toolError } from '../../errors.js';
import { SMART_HOME_ERRORS } from '../errors.js';
import { defineTool } from '../../tool.js';
import { ALARM_TIME_PATTERN, AlarmView, alarmView, parseAlarmTime, ringTime } from '../alarm-time.js';
import { requireCapability } from '../control.js';
import { label, offline, requireDevice, requireHome, requireUser, type SmartHomeDb } from '../db.js';
import { endpoint, userId } from '../fields.js';
import { ALARM_RECURRENCES, type Alarm } from '../schema.js';
import { codesOf } from '../../../lib/error-catalog.js';

/** Most alarms one device holds. */
export const MAX_ALARMS_PER_DEVICE = 10;

/** The id after the highest 'alarm_NNNN' of the table, as wide as the fixture writes them. */
function nextAlarmId(db: SmartHomeDb): string {
  let highest = 0;
  let width = 4;
  for (const [id] of db.alarms.entries()) {
    const digits = /^alarm_(\d+)$/.exec(id)?.[1];
    if (digits === undefined) continue;
    highest = Math.max(highest, Number(digits));
    width = Math.max(width, digits.length);
  }
  return `alarm_${String(highest + 1).padStart(width, '0')}`;
}

export default defineTool({
  name: 'create_alarm',
  description:
    "Set an alarm on one device of the person's own home that can ring alarms (speakers). `time` is a wall-clock " +
    "time at the home, in the home's time zone (never UTC): 'YYYY-MM-DDTHH:MM' (seconds optional) for a given day, or " +
    "'HH:MM' for the next such time (today if still ahead, else tomorrow; for weekdays or weekends the next such " +
    'day). A time in the past is refused (time_in_past); a given day outside the recurrence too (recurrence_mismatch). ' +
    'Refused as well: a device of another home (not_authorized), a device that cannot ring alarms ' +
    `(capability_unsupported), an offline device (device_offline), more than ${MAX_ALARMS_PER_DEVICE} alarms on a ` +
    'device (too_many_alarms). Returns the alarm with the weekday it rings next and that time with its offset: confirm ' +
    'the day and time with the person. Setting the same alarm twice makes two alarms: after an unanswered call, check ' +
    'get_alarms or repeat it with the same idempotency_key.',
  input: z.strictObject({
    user_id: userId.describe('The person setting the alarm; the device must be in their home.'),
    endpoint: endpoint.describe('The device to ring, by endpoint id (a speaker).'),
    time: z
      .string()
      .regex(ALARM_TIME_PATTERN, "a local time at the home: 'YYYY-MM-DDTHH:MM[:SS]' or 'HH:MM', without offset")
      .refine((text) => parseAlarmTime(text) !== null, 'not a time of the calendar')
      .describe("When it rings, local to the home, without offset: '2024-05-16T07:00' (seconds optional) or '07:00' for the next 07:00."),
    label: z.string().trim().min(1).max(100).default('Alarm').describe("What the alarm is for, e.g. 'Gym' (default 'Alarm')."),
    recurrence: z
      .enum(ALARM_RECURRENCES)
      .default('once')
      .describe("'once' (default), 'daily', 'weekdays' (Monday to Friday) or 'weekends' (Saturday and Sunday)."),
  }),
  output: AlarmView,
  errors: codesOf(
    SMART_HOME_ERRORS,
    'user_not_found',
    'home_not_found',
    'endpoint_not_found',
    'not_authorized',
    'device_offline',
    'too_many_alarms',
    'capability_unsupported',
    'time_in_past',
    'recurrence_mismatch',
  ),
  mutates: true,
  effect: { destructive: false, idempotent: false },
  example: { user_id: 'ezra_li_4771', endpoint: 'LivingRoomSpeaker_4', time: '2024-05-17T07:00:00' },
  run({ user_id, endpoint, time, label: name, recurrence }, db: SmartHomeDb, ctx) {
    const user = requireUser(db, user_id);
    const device = requireDevice(db, endpoint);
    if (device.home_id !== user.home_id) {
      throw toolError(
        SMART_HOME_ERRORS.not_authorized,
        `${label(device)} is not in the home of user '${user.user_id}': alarms are set on the devices of their own home.`,
      );
    }
    requireCapability(device, 'alarm', 'alarms');
    if (!device.online) throw offline(device);
    const home = requireHome(db, device.home_id);
    const rings = ringTime(home.timezone, time, recurrence, ctx.now().getTime());
    const count = [...db.alarms.values()].filter((alarm) => alarm.endpoint === device.endpoint).length;
    if (count >= MAX_ALARMS_PER_DEVICE) {
      throw toolError(
        SMART_HOME_ERRORS.too_many_alarms,
        `${label(device)} already has ${count} alarms, the most it holds: delete one with delete_alarm first.`,
      );
    }
    const alarm: Alarm = {
      alarm_id: nextAlarmId(db),
      endpoint: device.endpoint,
      user_id: user.user_id,
      home_id: home.home_id,
      time: rings,
      recurrence,
      label: name,
      enabled: true,
      created_at: ctx.now().toISOString(),
    };
    db.alarms.put(alarm.alarm_id, alarm);
    return alarmView(alarm, home);
  },
});
