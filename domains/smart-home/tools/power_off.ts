import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { CommandOutput, runCommand } from '../commands.js';
import { requirePower } from '../control.js';
import type { SmartHomeDb } from '../db.js';
import { endpoints } from '../fields.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { SMART_HOME_ERRORS } from '../errors.js';

export default defineTool({
  name: 'power_off',
  description:
    'Turn devices off: lights, dimmers, colour bulbs, plugs, speakers and TVs (the devices with the power capability). ' +
    'Turning off a speaker or TV stops what it plays (playback status stopped). Takes several endpoints at once and ' +
    'reports per endpoint (status ok or failed with its code); read every result. A device already off stays off (ok). ' +
    'An offline device fails (device_offline); a device without power control fails (capability_unsupported): set a ' +
    "thermostat's mode to off with mode_set. When every device fails, the call is refused as a whole and nothing changes.",
  input: z.strictObject({ endpoints }),
  output: CommandOutput,
  errors: codesOf(SMART_HOME_ERRORS, 'endpoint_not_found', 'device_offline', 'capability_unsupported'),
  mutates: true,
  effect: { destructive: true, idempotent: true },
  example: { endpoints: ['FloorLamp_1'] },
  run({ endpoints }, db: SmartHomeDb, ctx) {
    return runCommand(db, endpoints, ctx, (device) => {
      requirePower(device);
      const playback = device.state.playback;
      return playback && playback.status !== 'stopped' ? { power: 'off', playback: { ...playback, status: 'stopped' } } : { power: 'off' };
    });
  },
});
