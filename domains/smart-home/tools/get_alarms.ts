import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { AlarmView, alarmView } from '../alarm-time.js';
import { requireDevice, requireUser, type SmartHomeDb } from '../db.js';
import { endpoint, userId } from '../fields.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { SMART_HOME_ERRORS } from '../errors.js';

export default defineTool({
  name: 'get_alarms',
  description:
    'List alarms, soonest first: those a person set (user_id), those of one device (endpoint), or with both, those the ' +
    'person set on that device. Give at least one. Times are wall-clock times at the home (with the weekday and the ' +
    'same time with its offset, rings_at). Use it to find an alarm_id before delete_alarm, and to check whether an ' +
    'alarm was set after a call that got no answer. Changes nothing.',
  input: z
    .strictObject({
      user_id: userId.optional().describe('Only the alarms this person set.'),
      endpoint: endpoint.optional().describe('Only the alarms of this device.'),
    })
    .refine((args) => args.user_id !== undefined || args.endpoint !== undefined, { message: 'give user_id, endpoint or both', path: ['user_id'] }),
  output: z.object({ total: z.number().int(), alarms: z.array(AlarmView) }),
  errors: codesOf(SMART_HOME_ERRORS, 'user_not_found', 'endpoint_not_found'),
  mutates: false,
  example: { user_id: 'anya_bianchi_2547' },
  run({ user_id, endpoint }, db: SmartHomeDb) {
    if (user_id !== undefined) requireUser(db, user_id);
    if (endpoint !== undefined) requireDevice(db, endpoint);
    const alarms = [...db.alarms.values()]
      .filter((alarm) => (user_id === undefined || alarm.user_id === user_id) && (endpoint === undefined || alarm.endpoint === endpoint))
      .sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : a.alarm_id < b.alarm_id ? -1 : 1));
    return { total: alarms.length, alarms: alarms.map((alarm) => alarmView(alarm, db.homes.get(alarm.home_id))) };
  },
});
