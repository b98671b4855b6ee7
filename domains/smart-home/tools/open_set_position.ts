import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { CommandOutput, runCommand } from '../commands.js';
import { requireCapability } from '../control.js';
import { hasCapability, type SmartHomeDb } from '../db.js';
import { endpoints } from '../fields.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { SMART_HOME_ERRORS } from '../errors.js';

export default defineTool({
  name: 'open_set_position',
  description:
    'Move blinds to a position in percent: 0 fully closed, 100 fully open, 50 half open. Blinds only: a garage door ' +
    'only opens or closes (use open_open or open_close; capability_unsupported here). Policy: opening ground-floor ' +
    'blinds at night needs the person\'s explicit "yes" first. Takes several endpoints at once and reports per ' +
    'endpoint (status ok or failed with its code, e.g. device_offline, capability_unsupported); when every device ' +
    'fails, the call is refused as a whole and nothing changes.',
  input: z.strictObject({
    endpoints,
    position: z.number().int().min(0).max(100).describe('How far open, in percent: 0 fully closed, 100 fully open.'),
  }),
  output: CommandOutput,
  errors: codesOf(SMART_HOME_ERRORS, 'endpoint_not_found', 'device_offline', 'capability_unsupported'),
  mutates: true,
  effect: { destructive: true, idempotent: true },
  example: { endpoints: ['LivingRoomBlinds_3'], position: 40 },
  run({ endpoints, position }, db: SmartHomeDb, ctx) {
    return runCommand(db, endpoints, ctx, (device) => {
      requireCapability(device, 'position', hasCapability(device, 'open_close') ? 'a position: it only opens or closes (open_open, open_close)' : 'a position');
      return { position };
    });
  },
});
