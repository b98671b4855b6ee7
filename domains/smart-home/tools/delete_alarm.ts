import { z } from 'zod';
import { notFound } from '../../errors.js';
import { defineTool } from '../../tool.js';
import { AlarmView, alarmView } from '../alarm-time.js';
import type { SmartHomeDb } from '../db.js';
import { alarmId } from '../fields.js';

export default defineTool({
  name: 'delete_alarm',
  description:
    'Delete one alarm by its alarm_id (from get_alarms or create_alarm) and return it as it was. Delete only an alarm ' +
    'the person identified; a deleted alarm cannot be restored (set it again with create_alarm).',
  input: z.strictObject({ alarm_id: alarmId }),
  output: AlarmView,
  mutates: true,
  effect: { destructive: true, idempotent: true },
  run({ alarm_id }, db: SmartHomeDb) {
    const alarm = db.alarms.get(alarm_id);
    if (!alarm) throw notFound(`Unknown alarm_id '${alarm_id}'. Use get_alarms to list the alarms.`, 'alarm_not_found');
    db.alarms.remove(alarm_id);
    return alarmView(alarm, db.homes.get(alarm.home_id));
  },
});
