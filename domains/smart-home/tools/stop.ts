import { z } from 'zod';
import { defineTool } from '../../tool.js';
import type { SmartHomeDb } from '../db.js';
import { endpoints } from '../fields.js';
import { PER_ENDPOINT, PlaybackOutput, runPlayback, stopStep } from '../playback.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { SMART_HOME_ERRORS } from '../errors.js';

export default defineTool({
  name: 'stop',
  description:
    'Stop playback on speakers or TVs (status stopped; the device stays on, and resume does not continue a stopped ' +
    'queue: use play). A device must be playing or paused: one already stopped or with nothing loaded fails with ' +
    `nothing_playing. ${PER_ENDPOINT}`,
  input: z.strictObject({ endpoints: endpoints.describe('The speakers or TVs to stop, by endpoint id (1 to 25, no repeats).') }),
  output: PlaybackOutput,
  errors: codesOf(SMART_HOME_ERRORS, 'endpoint_not_found', 'device_offline', 'nothing_playing', 'capability_unsupported'),
  mutates: true,
  effect: { destructive: true, idempotent: true },
  example: { endpoints: ['LivingRoomTV_45'] },
  run({ endpoints }, db: SmartHomeDb, ctx) {
    return runPlayback(db, endpoints, ctx, stopStep);
  },
});
