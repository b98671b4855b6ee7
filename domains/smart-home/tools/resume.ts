import { z } from 'zod';
import { defineTool } from '../../tool.js';
import type { SmartHomeDb } from '../db.js';
import { endpoints } from '../fields.js';
import { PER_ENDPOINT, PlaybackOutput, resumeStep, runPlayback } from '../playback.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { SMART_HOME_ERRORS } from '../errors.js';

export default defineTool({
  name: 'resume',
  description:
    'Resume paused playback on speakers or TVs, at the item where it was paused. A device must be paused: one playing, ' +
    `stopped or with nothing loaded fails with not_paused (start something new with play). ${PER_ENDPOINT}`,
  input: z.strictObject({ endpoints: endpoints.describe('The speakers or TVs to resume, by endpoint id (1 to 25, no repeats).') }),
  output: PlaybackOutput,
  errors: codesOf(SMART_HOME_ERRORS, 'endpoint_not_found', 'device_off', 'device_offline', 'not_paused', 'nothing_playing', 'capability_unsupported'),
  mutates: true,
  effect: { destructive: true, idempotent: true },
  example: { endpoints: ['LivingRoomTV_5'] },
  run({ endpoints }, db: SmartHomeDb, ctx) {
    return runPlayback(db, endpoints, ctx, resumeStep);
  },
});
