import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { CommandOutput, runCommand } from '../commands.js';
import type { SmartHomeDb } from '../db.js';
import { endpoints } from '../fields.js';
import { THERMOSTAT_MODES } from '../schema.js';
import { clampSetpoint, LIMITS_TEXT, requireThermostat } from '../thermostat.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { SMART_HOME_ERRORS } from '../errors.js';

export default defineTool({
  name: 'mode_set',
  description:
    'Set the mode of thermostats: heat, cool, auto, eco, or off (off is how a thermostat is turned off; any other mode ' +
    `turns it back on). Each mode has its own setpoint limits (${LIMITS_TEXT}): a target temperature outside the new ` +
    "mode's limits is moved to the nearest limit (the answer's state shows it), otherwise it is kept. Takes several " +
    'endpoints at once and reports per endpoint (status ok or failed with its code, e.g. device_offline, ' +
    'capability_unsupported for a device that is not a thermostat); when every device fails, the call is refused as a ' +
    'whole and nothing changes.',
  input: z.strictObject({
    endpoints,
    mode: z.enum(THERMOSTAT_MODES).describe("The new mode: 'heat', 'cool', 'auto', 'eco', or 'off'."),
  }),
  output: CommandOutput,
  errors: codesOf(SMART_HOME_ERRORS, 'endpoint_not_found', 'device_offline', 'capability_unsupported'),
  mutates: true,
  effect: { destructive: true, idempotent: true },
  example: { endpoints: ['HallwayThermostat_8'], mode: 'heat' },
  run({ endpoints, mode }, db: SmartHomeDb, ctx) {
    return runCommand(db, endpoints, ctx, (device) => {
      const unit = requireThermostat(device, 'a thermostat mode');
      const target = device.state.target_temperature;
      return mode === 'off' || target === undefined ? { mode } : { mode, target_temperature: clampSetpoint(target, mode, unit) };
    });
  },
});
