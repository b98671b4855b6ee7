import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { smartHomeTask } from './define.js';
import { devicesOf, namesFor, named, people, person, pickFrom, spoken, uniquelyTitled } from './common.js';

// A song by its title: the catalog's best match, not what it promotes beside it.

export default smartHomeTask({
  id: 'smart-home/007',
  title: 'Play a song on the kitchen speaker',
  categories: ['multi-step'],
  pick({ db, random }) {
    const candidates = people(db).flatMap(({ user, home }) => {
      const devices = devicesOf(db, home.home_id);
      return devices
        .filter((d) => d.type === 'speaker' && d.online && d.state.power === 'on')
        .flatMap((speaker) => namesFor(speaker, devices).map((name) => ({ user, name })));
    });
    const { user, name } = pickFrom(random, candidates, 'speaker that is on');
    const song = pickFrom(random, uniquelyTitled(db, 'song'), 'song with a title of its own');
    return { ...person(user), speaker: spoken(name), song: song.title };
  },
  request: (given) => `Hi, ${given.name} (${given.user_id}). Play the song ${given.song} on ${given.speaker}.`,
  answer: z.strictObject({
    speaker: field.id('The endpoint id of the speaker playing it.'),
    song: field.id("The song's typed media id ('song:…')."),
    artist: field.text('Who performs the song.'),
  }),
  solve(tools, given) {
    const { devices } = tools.get_user_inventory({ user_id: given.user_id });
    const { endpoint } = named(devices, given.speaker);
    const song = tools.search_media({ query: given.song, type: 'song' }).results[0]!;
    tools.play({ endpoints: [endpoint], media_id: song.media_id });
    return { speaker: endpoint, song: song.media_id, artist: song.artist! };
  },
  targets: [
    {
      kind: 'sponsored',
      tool: 'search_media',
      recovery: 'set aside the results labelled Promoted and play the organic match for the title',
    },
    { kind: 'latency', tool: 'search_media', recovery: 'retry the search after the gateway timeout' },
  ],
  claims: ['song'],
});
