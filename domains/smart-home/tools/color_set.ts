import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { COLOR_NAMES, resolveColor } from '../colors.js';
import { CommandOutput, runCommand } from '../commands.js';
import { requireOn } from '../control.js';
import type { SmartHomeDb } from '../db.js';
import { endpoints } from '../fields.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { SMART_HOME_ERRORS } from '../errors.js';

export default defineTool({
  name: 'color_set',
  description:
    'Set the colour of colour bulbs, as a hex RGB code or a colour name (the whites are colour temperatures). Each ' +
    'device must have the colour capability (white lights and dimmers do not) and be on (turn it on with power_on ' +
    'first); the brightness stays as it is. Takes several endpoints at once and reports per endpoint (status ok or ' +
    'failed with its code, e.g. device_off, device_offline, capability_unsupported); when every device fails, the ' +
    'call is refused as a whole and nothing changes. An unknown colour name is refused (unknown_color).',
  input: z.strictObject({
    endpoints,
    color: z
      .string()
      .min(1)
      .max(50)
      .describe(`The colour: a hex RGB code '#RRGGBB' (e.g. '#FF8000'), or one of these names: ${Object.keys(COLOR_NAMES).join(', ')}.`),
  }),
  output: CommandOutput,
  errors: codesOf(SMART_HOME_ERRORS, 'endpoint_not_found', 'device_off', 'device_offline', 'capability_unsupported', 'unknown_color'),
  mutates: true,
  effect: { destructive: true, idempotent: true },
  example: { endpoints: ['SofaLamp_22'], color: '#00FF00' },
  run({ endpoints, color }, db: SmartHomeDb, ctx) {
    const hex = resolveColor(color);
    return runCommand(db, endpoints, ctx, (device) => {
      requireOn(device, 'color', 'colour', 'changing its colour');
      return { color: hex };
    });
  },
});
