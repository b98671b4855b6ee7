import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { CommandOutput, runCommand } from '../commands.js';
import type { SmartHomeDb } from '../db.js';
import { endpoints } from '../fields.js';
import { openedOrClosed } from '../openings.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { SMART_HOME_ERRORS } from '../errors.js';

export default defineTool({
  name: 'open_open',
  description:
    'Open blinds (fully: position 100) and garage doors. Policy: before opening a garage door, or blinds on the ground ' +
    'floor at night, say exactly which one you will open and get the person\'s explicit "yes" first. Something ' +
    'already open stays open (ok). Takes several endpoints at once and reports per endpoint (status ok or failed with ' +
    'its code, e.g. device_offline, capability_unsupported for a device that does not open); when every device fails, ' +
    'the call is refused as a whole and nothing changes. To open blinds part of the way, use open_set_position.',
  input: z.strictObject({ endpoints }),
  output: CommandOutput,
  errors: codesOf(SMART_HOME_ERRORS, 'endpoint_not_found', 'device_offline', 'obstructed', 'capability_unsupported'),
  mutates: true,
  effect: { destructive: true, idempotent: true },
  example: { endpoints: ['LivingRoomBlinds_3'] },
  run({ endpoints }, db: SmartHomeDb, ctx) {
    return runCommand(db, endpoints, ctx, (device) => openedOrClosed(device, 'open'));
  },
});
