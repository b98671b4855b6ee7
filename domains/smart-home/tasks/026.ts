import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { smartHomeTask, smartHomeTurn } from './define.js';
import { devicesOf, namesFor, named, people, person, pickFrom, spoken, uniquelyTitled } from './common.js';

// An album on a speaker that is off (turning it on is part of playing), then "turn it up by N": a level
// read from the speaker, plus N.

interface Given {
  name: string;
  user_id: string;
  speaker: string;
  album: string;
  by: number;
}

export default smartHomeTask({
  id: 'smart-home/026',
  title: 'Play an album in the bathroom, then turn it up',
  categories: ['multi-mission', 'multi-step'],
  pick({ db, random }): Given {
    const by = random.pick([5, 10, 15, 20]);
    const candidates = people(db).flatMap(({ user, home }) => {
      const devices = devicesOf(db, home.home_id);
      return devices
        .filter((d) => d.type === 'speaker' && d.online && d.state.power === 'off' && d.state.volume! + by <= 100)
        .flatMap((speaker) => namesFor(speaker, devices).map((name) => ({ user, name })));
    });
    const { user, name } = pickFrom(random, candidates, 'speaker that is off');
    const album = pickFrom(random, uniquelyTitled(db, 'album'), 'album with a title of its own');
    return { ...person(user), speaker: spoken(name), album: album.title, by };
  },
  request: (given) => `Hi, ${given.name} (${given.user_id}). Play the album ${given.album} on ${given.speaker}.`,
  answer: z.strictObject({
    speaker: field.id('The endpoint id of the speaker playing it.'),
    album: field.id("The album's typed media id ('album:…')."),
    turned_on: field.flag('Whether you turned the speaker on first.'),
  }),
  solve(tools, given) {
    const { devices } = tools.get_user_inventory({ user_id: given.user_id });
    const { endpoint } = named(devices, given.speaker);
    tools.power_on({ endpoints: [endpoint] });
    const album = tools.search_media({ query: given.album, type: 'album' }).results[0]!;
    tools.play({ endpoints: [endpoint], media_id: album.media_id });
    return { speaker: endpoint, album: album.media_id, turned_on: true };
  },
  follow_ups: [
    smartHomeTurn({
      request: (given: Given) => `Lovely. Turn it up by ${given.by}, please.`,
      answer: z.strictObject({ volume: field.count("The speaker's volume now, in percent, as the command's answer reports it.") }),
      solve(tools, given: Given) {
        const { devices } = tools.get_user_inventory({ user_id: given.user_id });
        const { endpoint } = named(devices, given.speaker);
        const now = tools.get_device_telemetry({ endpoint }).state.volume!;
        return { volume: tools.volume_adjust({ endpoints: [endpoint], volume: now + given.by }).results[0]!.state!.volume! };
      },
    }),
  ],
  targets: [
    {
      kind: 'transport_fault',
      tool: 'power_on',
      recovery: 'send power_on again (with the same idempotency key): a command cut off before it ran was not applied',
    },
    {
      kind: 'ambiguous_doc',
      tool: 'volume_adjust',
      recovery: 'read the current volume with get_device_telemetry and send the new absolute level (current + 10)',
    },
  ],
  claims: ['album'],
});
