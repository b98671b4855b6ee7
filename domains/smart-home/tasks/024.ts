import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { smartHomeTask } from './define.js';
import { pickFrom, uniquelyTitled } from './common.js';

// Two albums looked up at once in the catalog: who recorded each, and when.

export default smartHomeTask({
  id: 'smart-home/024',
  title: 'Who made two albums, and when',
  categories: ['parallel'],
  pick({ db, random }) {
    const albums = uniquelyTitled(db, 'album');
    const first = pickFrom(random, albums, 'album with a title of its own');
    const second = pickFrom(
      random,
      albums.filter((album) => album.artist !== first.artist),
      'second album',
    );
    return { albums: [first.title, second.title] };
  },
  request: (given) => `Who recorded the albums ${given.albums[0]} and ${given.albums[1]}, and what year did each come out?`,
  answer: z.strictObject({
    albums: field.set(
      z.strictObject({
        album: field.id("The album's typed media id ('album:…')."),
        artist: field.text('Who recorded it.'),
        year: field.count('The year it came out.'),
      }),
      'Each of the two albums.',
    ),
  }),
  solve(tools, given) {
    return {
      albums: given.albums.map((title) => {
        const album = tools.search_media({ query: title, type: 'album' }).results[0]!;
        return { album: album.media_id, artist: album.artist!, year: album.year };
      }),
    };
  },
  targets: [{ kind: 'latency', tool: 'search_media', recovery: 'retry the searches after the gateway timeout' }],
});
