import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { smartHomeTask } from './define.js';
import { devicesOf, inSync, namesFor, named, people, person, pickFrom, spoken } from './common.js';

// "Turn it up by N": volume_adjust takes an absolute level, so the new level depends on the current one.

export default smartHomeTask({
  id: 'smart-home/003',
  title: 'Turn the kitchen speaker up by 10',
  categories: ['single-step'],
  pick({ db, random }) {
    const by = random.pick([5, 10, 15, 20]);
    const candidates = people(db).flatMap(({ user, home }) => {
      const devices = devicesOf(db, home.home_id);
      return devices
        .filter((d) => d.type === 'speaker' && d.online && d.state.power === 'on' && d.state.volume! + by <= 100 && inSync(d, ['volume']))
        .flatMap((speaker) => namesFor(speaker, devices).map((name) => ({ user, name })));
    });
    const { user, name } = pickFrom(random, candidates, 'speaker playing loud enough to turn up');
    return { ...person(user), speaker: spoken(name), by };
  },
  request: (given) => `This is ${given.name} (${given.user_id}). Turn ${given.speaker} up by ${given.by}, please.`,
  answer: z.strictObject({
    speaker: field.id('The endpoint id of the speaker you turned up.'),
    volume: field.count("The speaker's volume now, in percent, as the command's answer reports it."),
  }),
  solve(tools, given) {
    const { devices } = tools.get_user_inventory({ user_id: given.user_id });
    const { endpoint } = named(devices, given.speaker);
    const now = tools.get_device_telemetry({ endpoint }).state.volume!;
    const state = tools.volume_adjust({ endpoints: [endpoint], volume: now + given.by }).results[0]!.state!;
    return { speaker: endpoint, volume: state.volume! };
  },
  targets: [
    {
      kind: 'ambiguous_doc',
      tool: 'volume_adjust',
      recovery: 'read the current volume with get_device_telemetry and send the new absolute level (current + 10)',
    },
  ],
  claims: ['volume'],
});
