import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { CommandOutput, runCommand } from '../commands.js';
import { requireOn } from '../control.js';
import type { SmartHomeDb } from '../db.js';
import { endpoints } from '../fields.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { SMART_HOME_ERRORS } from '../errors.js';

/**
 * The phrases that say the level is absolute, in the description and the field's: the ambiguous_doc hazard
 * removes them (domains/smart-home/hazards/specification.ts).
 */
export const VOLUME_ABSOLUTE_PHRASES = [
  'It is an absolute level, not a change: to turn it up by 10 from 30, send 40 (read the current volume first).',
  ', an absolute level, not a change',
] as const;

export default defineTool({
  name: 'volume_adjust',
  description:
    `Set the volume of speakers and TVs, in percent (0 to 100). ${VOLUME_ABSOLUTE_PHRASES[0]} Each device must have ` +
    'the volume capability and be on (turn it on with power_on first). Takes several endpoints at once and reports ' +
    'per endpoint (status ok or failed with its code, e.g. device_off, device_offline, capability_unsupported); when ' +
    'every device fails, the call is refused as a whole and nothing changes.',
  input: z.strictObject({
    endpoints,
    volume: z.number().int().min(0).max(100).describe(`The new volume in percent, 0 (muted) to 100${VOLUME_ABSOLUTE_PHRASES[1]}.`),
  }),
  output: CommandOutput,
  errors: codesOf(SMART_HOME_ERRORS, 'endpoint_not_found', 'device_off', 'device_offline', 'capability_unsupported'),
  mutates: true,
  effect: { destructive: true, idempotent: true },
  example: { endpoints: ['LivingRoomSpeaker_4'], volume: 30 },
  run({ endpoints, volume }, db: SmartHomeDb, ctx) {
    return runCommand(db, endpoints, ctx, (device) => {
      requireOn(device, 'volume', 'volume', 'setting its volume');
      return { volume };
    });
  },
});
