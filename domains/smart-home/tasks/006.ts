import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { smartHomeTask } from './define.js';
import { devicesOf, namesFor, named, people, person, pickFrom, spoken, uniquelyTitled } from './common.js';

// An album by its title, on a speaker that is on: found with search_media, played by its typed id.

export default smartHomeTask({
  id: 'smart-home/006',
  title: 'Play an album on the living room speaker',
  categories: ['multi-step'],
  pick({ db, random }) {
    const candidates = people(db).flatMap(({ user, home }) => {
      const devices = devicesOf(db, home.home_id);
      return devices
        .filter((d) => d.type === 'speaker' && d.online && d.state.power === 'on')
        .flatMap((speaker) => namesFor(speaker, devices).map((name) => ({ user, name })));
    });
    const { user, name } = pickFrom(random, candidates, 'speaker that is on');
    const album = pickFrom(random, uniquelyTitled(db, 'album'), 'album with a title of its own');
    return { ...person(user), speaker: spoken(name), album: album.title };
  },
  request: (given) => `${given.name} here (${given.user_id}). Put on the album ${given.album} on ${given.speaker}, please.`,
  answer: z.strictObject({
    speaker: field.id('The endpoint id of the speaker playing it.'),
    album: field.id("The album's typed media id ('album:…')."),
    artist: field.text('Who recorded the album.'),
    songs: field.count("How many songs the speaker's queue holds now, as the play command's answer reports it."),
  }),
  solve(tools, given) {
    const { devices } = tools.get_user_inventory({ user_id: given.user_id });
    const { endpoint } = named(devices, given.speaker);
    const album = tools.search_media({ query: given.album, type: 'album' }).results[0]!;
    const state = tools.play({ endpoints: [endpoint], media_id: album.media_id }).results[0]!.state!;
    return { speaker: endpoint, album: album.media_id, artist: album.artist!, songs: state.playback!.queue.length };
  },
  targets: [
    { kind: 'transient_failure', tool: 'search_media', recovery: 'retry the search: nothing ran' },
    { kind: 'transient_failure', tool: 'play', recovery: 'retry play: the failed call did not run' },
    {
      kind: 'latency',
      tool: 'play',
      recovery: 'repeat play with the same idempotency_key: a play that went through before the timeout is replayed, not restarted',
    },
  ],
  claims: ['album'],
});
