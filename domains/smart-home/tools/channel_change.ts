import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { LINEUP, requireChannel } from '../channels.js';
import { CommandOutput, runCommand } from '../commands.js';
import { requireOn } from '../control.js';
import type { SmartHomeDb } from '../db.js';
import { endpoints } from '../fields.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { SMART_HOME_ERRORS } from '../errors.js';

export default defineTool({
  name: 'channel_change',
  description:
    'Tune TVs to a channel of the lineup, by number or by name (the state holds the number). Each device must be a TV ' +
    '(the channel capability: speakers have none) and be on (turn it on with power_on first). Tuning ends whatever ' +
    'the TV was playing (playback becomes null). Takes several endpoints at once and reports per endpoint (status ok ' +
    'or failed with its code, e.g. device_off, device_offline, capability_unsupported); when every device fails, the ' +
    `call is refused as a whole and nothing changes. A channel not in the lineup is refused (channel_not_found). The lineup: ${LINEUP}.`,
  input: z.strictObject({
    endpoints,
    channel: z
      .union([z.number().int().min(1).max(999), z.string().min(1).max(100)])
      .describe("The channel: its number (e.g. 24) or its name as the lineup spells it (e.g. 'CNN', 'Food Network'; case and spaces do not matter)."),
  }),
  output: CommandOutput,
  errors: codesOf(SMART_HOME_ERRORS, 'endpoint_not_found', 'channel_not_found', 'device_off', 'device_offline', 'capability_unsupported'),
  mutates: true,
  effect: { destructive: true, idempotent: true },
  example: { endpoints: ['LivingRoomTV_5'], channel: 7 },
  run({ endpoints, channel }, db: SmartHomeDb, ctx) {
    const { number } = requireChannel(channel);
    return runCommand(db, endpoints, ctx, (device) => {
      requireOn(device, 'channel', 'channels', 'changing its channel');
      return { channel: number, playback: null };
    });
  },
});
