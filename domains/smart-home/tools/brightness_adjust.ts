import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { CommandOutput, runCommand } from '../commands.js';
import { requireOn } from '../control.js';
import type { SmartHomeDb } from '../db.js';
import { endpoints } from '../fields.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { SMART_HOME_ERRORS } from '../errors.js';

export default defineTool({
  name: 'brightness_adjust',
  description:
    'Set the brightness of dimmers and colour bulbs, in percent. Give exactly one of `brightness`, the new absolute ' +
    "level 0–100, or `step`, a change from each device's current level (e.g. -20 dims by 20 points; the result is " +
    'kept within 0–100). Each device must have the brightness capability (plain lights and plugs do not) and be on ' +
    '(turn it on with power_on first); brightness 0 leaves it on at its lowest level. Takes several endpoints at once ' +
    'and reports per endpoint (status ok or failed with its code, e.g. device_off, device_offline, ' +
    'capability_unsupported); when every device fails, the call is refused as a whole and nothing changes.',
  input: z
    .strictObject({
      endpoints,
      brightness: z.number().int().min(0).max(100).optional().describe('The new brightness, an absolute level in percent from 0 to 100. Not with step.'),
      step: z
        .number()
        .int()
        .min(-100)
        .max(100)
        .refine((value) => value !== 0, 'must not be 0')
        .optional()
        .describe(
          "A change in percentage points from each device's current brightness, -100 to 100, not 0 (e.g. 10 to brighten, -10 to dim). Not with brightness.",
        ),
    })
    .superRefine(({ brightness, step }, ctx) => {
      if ((brightness === undefined) === (step === undefined)) {
        ctx.addIssue({ code: 'custom', path: ['brightness'], message: 'give exactly one of brightness or step' });
      }
    }),
  output: CommandOutput,
  errors: codesOf(SMART_HOME_ERRORS, 'endpoint_not_found', 'device_off', 'device_offline', 'capability_unsupported'),
  mutates: true,
  effect: { destructive: true, idempotent: false },
  example: { endpoints: ['BedroomCeilingLight_10'], brightness: 40 },
  run({ endpoints, brightness, step }, db: SmartHomeDb, ctx) {
    return runCommand(db, endpoints, ctx, (device) => {
      requireOn(device, 'brightness', 'brightness', 'dimming it');
      const level = brightness ?? (device.state.brightness ?? 0) + step!;
      return { brightness: Math.min(100, Math.max(0, level)) };
    });
  },
});
