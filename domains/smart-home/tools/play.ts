import { z } from 'zod';
import { Random } from '../../../lib/random.js';
import { toolError } from '../../errors.js';
import { SMART_HOME_ERRORS } from '../errors.js';
import { defineTool } from '../../tool.js';
import { runCommand } from '../commands.js';
import { requireCapability } from '../control.js';
import { poweredOff, requireMedia, type SmartHomeDb } from '../db.js';
import { endpoints, mediaId } from '../fields.js';
import { mediaUnsupported, PER_ENDPOINT, PlaybackOutput, queueOf, VIDEO_TYPES, withNowPlaying } from '../playback.js';
import { codesOf } from '../../../lib/error-catalog.js';

export default defineTool({
  name: 'play',
  description:
    "Play a catalog item on speakers or TVs, by its typed media id from search_media (e.g. 'song:…', 'album:…', " +
    "'playlist:…', 'artist:…', 'movie:…', 'show:…'). Each device must be able to play media and be on (turn it on " +
    'with power_on first; device_off otherwise). Music plays on speakers and TVs; video (movies, shows, episodes) ' +
    "only on TVs (media_unsupported on a speaker). The queue is what the id plays: an album's or playlist's songs, " +
    "an artist's top songs, a show's episodes, or the single item, from the first (in random order with shuffle). " +
    `It replaces whatever the device was playing. ${PER_ENDPOINT} now_playing tells the current item of each device.`,
  input: z.strictObject({
    endpoints: endpoints.describe('The speakers or TVs to play on, by endpoint id (1 to 25, no repeats); each plays the whole queue.'),
    media_id: mediaId,
    shuffle: z.boolean().default(false).describe('Play the queue in random order (default false).'),
  }),
  output: PlaybackOutput,
  errors: codesOf(SMART_HOME_ERRORS, 'endpoint_not_found', 'media_not_found', 'device_off', 'device_offline', 'capability_unsupported', 'media_unsupported'),
  mutates: true,
  effect: { destructive: true, idempotent: false },
  example: { endpoints: ['LivingRoomSpeaker_4'], media_id: 'song:paper-lights-5939' },
  run({ endpoints, media_id, shuffle }, db: SmartHomeDb, ctx) {
    const media = requireMedia(db, media_id);
    const items = queueOf(media);
    if (items.length === 0) throw toolError(SMART_HOME_ERRORS.media_unsupported, `${media.media_id} (${media.title}) has nothing to play.`);
    const output = runCommand(db, endpoints, ctx, (device, now) => {
      requireCapability(device, 'playback', 'media playback');
      if (VIDEO_TYPES.includes(media.type) && device.type !== 'tv') throw mediaUnsupported(device, media);
      if (device.state.power !== 'on') throw poweredOff(device, 'playing on it');
      const queue = shuffle ? new Random(`${media.media_id}|${device.endpoint}|${now.toISOString()}`).shuffle(items) : [...items];
      return { playback: { status: 'playing', media_id: media.media_id, queue, index: 0, shuffle } };
    });
    return withNowPlaying(db, output);
  },
});
