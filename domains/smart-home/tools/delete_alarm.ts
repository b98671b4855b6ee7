import { z } from 'zod';
import { toolError } from '../../errors.js';
import { SMART_HOME_ERRORS } from '../errors.js';
import { defineTool } from '../../tool.js';
import { AlarmView, alarmView } from '../alarm-time.js';
import type { SmartHomeDb } from '../db.js';
import { alarmId } from '../fields.js';
import { codesOf } from '../../../lib/error-catalog.js';

export default defineTool({
  name: 'delete_alarm',
  description:
    'Delete one alarm by its alarm_id (from get_alarms or create_alarm) and return it as it was. Delete only an alarm ' +
    'the person identified; a deleted alarm cannot be restored (set it again with create_alarm).',
  input: z.strictObject({ alarm_id: alarmId }),
  output: AlarmView,
  errors: codesOf(SMART_HOME_ERRORS, 'alarm_not_found'),
  mutates: true,
  effect: { destructive: true, idempotent: true },
  example: { alarm_id: 'alarm_0001' },
  run({ alarm_id }, db: SmartHomeDb) {
    const alarm = db.alarms.get(alarm_id);
    if (!alarm) throw toolError(SMART_HOME_ERRORS.alarm_not_found, `Unknown alarm_id '${alarm_id}'. Use get_alarms to list the alarms.`);
    db.alarms.remove(alarm_id);
    return alarmView(alarm, db.homes.get(alarm.home_id));
  },
});
