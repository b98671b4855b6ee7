import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { requireMedia, type SmartHomeDb } from '../db.js';
import { mediaId } from '../fields.js';
import { Media } from '../schema.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { SMART_HOME_ERRORS } from '../errors.js';

export default defineTool({
  name: 'get_media_details',
  description:
    'Describe one catalog item by its typed media id: title, artist (performer, director or network), album, show, ' +
    'genre, year, duration in seconds, explicit content, popularity, and the playable items it plays in order ' +
    "(an album's or playlist's songs, an artist's top songs, a show's episodes) with their titles and durations; a " +
    'song, movie or episode plays itself (items empty). Movies, shows and episodes are video: they play only on TVs. ' +
    'Changes nothing.',
  input: z.strictObject({ media_id: mediaId }),
  output: Media.extend({
    items: z.array(z.object({ media_id: z.string(), title: z.string(), duration_s: z.number().int() })).describe('The playable items, in play order.'),
  }),
  errors: codesOf(SMART_HOME_ERRORS, 'media_not_found'),
  mutates: false,
  example: { media_id: 'song:paper-lights-5939' },
  run({ media_id }, db: SmartHomeDb) {
    const media = requireMedia(db, media_id);
    const items = media.items.flatMap((id) => {
      const item = db.media.get(id);
      return item ? [{ media_id: item.media_id, title: item.title, duration_s: item.duration_s }] : [];
    });
    return { ...media, items };
  },
});
