import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { CommandOutput, runCommand } from '../commands.js';
import type { SmartHomeDb } from '../db.js';
import { endpoints } from '../fields.js';
import { TEMPERATURE_UNITS } from '../schema.js';
import { LIMITS_TEXT, requireSetpointMode, requireThermostat, setpointFor } from '../thermostat.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { SMART_HOME_ERRORS } from '../errors.js';

export default defineTool({
  name: 'temperature_set',
  description:
    "Set the target temperature of thermostats. The temperature is in each thermostat's display unit unless `unit` " +
    'says otherwise; it is converted and rounded to what the thermostat holds (half degrees C, whole degrees F). Each ' +
    `mode has its own limits (${LIMITS_TEXT}): a value outside them fails (out_of_range). A thermostat in mode 'off' ` +
    'holds no setpoint (thermostat_off): set a mode with mode_set first. Takes several endpoints at once and reports ' +
    'per endpoint (status ok or failed with its code, e.g. device_offline, capability_unsupported for a device that is ' +
    'not a thermostat); when every device fails, the call is refused as a whole and nothing changes.',
  input: z.strictObject({
    endpoints,
    temperature: z.number().min(-50).max(150).describe("The target temperature, in `unit` if given, else in each thermostat's display unit."),
    unit: z.enum(TEMPERATURE_UNITS).optional().describe("'C' or 'F': the unit of `temperature`. Default: each thermostat's own display unit."),
  }),
  output: CommandOutput,
  errors: codesOf(SMART_HOME_ERRORS, 'endpoint_not_found', 'device_offline', 'thermostat_off', 'capability_unsupported', 'out_of_range'),
  mutates: true,
  effect: { destructive: true, idempotent: true },
  example: { endpoints: ['HallwayThermostat_8'], temperature: 75 },
  run({ endpoints, temperature, unit }, db: SmartHomeDb, ctx) {
    return runCommand(db, endpoints, ctx, (device) => {
      const own = requireThermostat(device, 'a temperature setpoint');
      const mode = requireSetpointMode(device);
      return { target_temperature: setpointFor(device, temperature, unit ?? own, own, mode) };
    });
  },
});
