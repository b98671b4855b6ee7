import { z } from 'zod';
import { toolError } from '../../errors.js';
import { SMART_HOME_ERRORS } from '../errors.js';
import { defineTool } from '../../tool.js';
import { CommandOutput, runCommand } from '../commands.js';
import { label, type SmartHomeDb } from '../db.js';
import { endpoints } from '../fields.js';
import { requireOperableLock } from '../locks.js';
import { codesOf } from '../../../lib/error-catalog.js';

export default defineTool({
  name: 'lock_lock',
  description:
    'Lock door locks. A lock whose door is open cannot throw its bolt (door_ajar: the door must be closed first); a ' +
    'jammed lock cannot be moved remotely (lock_jammed). A lock already locked stays locked (ok). Takes several ' +
    'endpoints at once and reports per endpoint (status ok or failed with its code, e.g. device_offline, ' +
    'capability_unsupported for a device that is not a lock); when every device fails, the call is refused as a ' +
    "whole and nothing changes. The answer's per-endpoint state is the lock's own report.",
  input: z.strictObject({ endpoints }),
  output: CommandOutput,
  errors: codesOf(SMART_HOME_ERRORS, 'endpoint_not_found', 'device_offline', 'lock_jammed', 'door_ajar', 'capability_unsupported'),
  mutates: true,
  effect: { destructive: true, idempotent: true },
  example: { endpoints: ['FrontDoorLock_9'] },
  run({ endpoints }, db: SmartHomeDb, ctx) {
    return runCommand(db, endpoints, ctx, (device) => {
      if (requireOperableLock(device) === 'locked') return {};
      if (device.state.door === 'open') throw toolError(SMART_HOME_ERRORS.door_ajar, `${label(device)} cannot lock: its door is open. Close the door first.`);
      return { lock: 'locked' };
    });
  },
});
