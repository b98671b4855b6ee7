import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { CommandOutput, runCommand } from '../commands.js';
import { requirePower } from '../control.js';
import type { SmartHomeDb } from '../db.js';
import { endpoints } from '../fields.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { SMART_HOME_ERRORS } from '../errors.js';

export default defineTool({
  name: 'power_on',
  description:
    'Turn devices on: lights, dimmers, colour bulbs, plugs, speakers and TVs (the devices with the power capability). ' +
    'Takes several endpoints at once and reports per endpoint (status ok or failed with its code); read every result. ' +
    'A device already on stays on (ok). An offline device fails (device_offline); a device without power control fails ' +
    '(capability_unsupported): thermostats are switched with mode_set, locks, blinds and garage doors have no power. ' +
    'When every device fails, the call is refused as a whole and nothing changes.',
  input: z.strictObject({ endpoints }),
  output: CommandOutput,
  errors: codesOf(SMART_HOME_ERRORS, 'endpoint_not_found', 'device_offline', 'capability_unsupported'),
  mutates: true,
  effect: { destructive: true, idempotent: true },
  example: { endpoints: ['FloorLamp_1'] },
  run({ endpoints }, db: SmartHomeDb, ctx) {
    return runCommand(db, endpoints, ctx, (device) => {
      requirePower(device);
      return { power: 'on' };
    });
  },
});
