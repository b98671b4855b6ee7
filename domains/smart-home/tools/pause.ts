import { z } from 'zod';
import { defineTool } from '../../tool.js';
import type { SmartHomeDb } from '../db.js';
import { endpoints } from '../fields.js';
import { PER_ENDPOINT, PlaybackOutput, pauseStep, runPlayback } from '../playback.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { SMART_HOME_ERRORS } from '../errors.js';

export default defineTool({
  name: 'pause',
  description:
    'Pause what speakers or TVs are playing, keeping the queue and the current item (resume continues it). A device ' +
    `must be playing: one paused, stopped or with nothing loaded fails with not_playing. ${PER_ENDPOINT}`,
  input: z.strictObject({ endpoints: endpoints.describe('The speakers or TVs to pause, by endpoint id (1 to 25, no repeats).') }),
  output: PlaybackOutput,
  errors: codesOf(SMART_HOME_ERRORS, 'endpoint_not_found', 'device_offline', 'not_playing', 'nothing_playing', 'capability_unsupported'),
  mutates: true,
  effect: { destructive: true, idempotent: true },
  example: { endpoints: ['LivingRoomTV_45'] },
  run({ endpoints }, db: SmartHomeDb, ctx) {
    return runPlayback(db, endpoints, ctx, pauseStep);
  },
});
