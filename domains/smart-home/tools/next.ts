import { z } from 'zod';
import { defineTool } from '../../tool.js';
import type { SmartHomeDb } from '../db.js';
import { endpoints } from '../fields.js';
import { nextStep, PER_ENDPOINT, PlaybackOutput, runPlayback } from '../playback.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { SMART_HOME_ERRORS } from '../errors.js';

export default defineTool({
  name: 'next',
  description:
    'Skip to the next item of the queue on speakers or TVs and play it (a paused device starts playing). A device must ' +
    'be playing or paused (nothing_playing otherwise), and not at the last item of its queue (end_of_queue: play ' +
    `something new instead). ${PER_ENDPOINT} now_playing tells the item each device moved to.`,
  input: z.strictObject({ endpoints: endpoints.describe('The speakers or TVs to skip on, by endpoint id (1 to 25, no repeats).') }),
  output: PlaybackOutput,
  errors: codesOf(SMART_HOME_ERRORS, 'endpoint_not_found', 'device_offline', 'nothing_playing', 'end_of_queue', 'capability_unsupported'),
  mutates: true,
  effect: { destructive: true, idempotent: false },
  example: { endpoints: ['LivingRoomTV_45'] },
  run({ endpoints }, db: SmartHomeDb, ctx) {
    return runPlayback(db, endpoints, ctx, nextStep);
  },
});
