import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { smartHomeTask } from './define.js';
import { devicesOf, isLighting, people, person, pickFrom } from './common.js';

// Every light of the home off in one command: the offline one cannot be reached, and a lost acknowledgement
// leaves another on until the command is repeated for it.

export default smartHomeTask({
  id: 'smart-home/009',
  title: 'Turn off all the lights',
  categories: ['multi-step', 'partial'],
  pick({ db, random }) {
    const candidates = people(db).filter(({ home }) => {
      const lights = devicesOf(db, home.home_id).filter(isLighting);
      return lights.filter((d) => d.online && d.state.power === 'on').length >= 2 && lights.some((d) => !d.online);
    });
    const { user } = pickFrom(random, candidates, 'home with lights on and one offline');
    return person(user);
  },
  request: (given) => `${given.name} here, user id ${given.user_id}. We're heading out: turn off all the lights in the house.`,
  answer: z.strictObject({
    turned_off: field.set(field.id('A light, by endpoint id.'), 'Every light your command turned off (or found already off).'),
    offline: field.set(field.id('A light, by endpoint id.'), 'The lights the command could not reach because they are offline.'),
  }),
  solve(tools, given) {
    const { devices } = tools.get_user_inventory({ user_id: given.user_id });
    const lights = devices.filter((d) => ['light', 'dimmer', 'color_bulb'].includes(d.type));
    const { results } = tools.power_off({ endpoints: lights.map((d) => d.endpoint) });
    return {
      turned_off: results.filter((r) => r.status === 'ok').map((r) => r.endpoint),
      offline: results.filter((r) => r.code === 'device_offline').map((r) => r.endpoint),
    };
  },
  targets: [
    {
      kind: 'partial_failure',
      tool: 'power_off',
      recovery: 'read every result and send power_off again for the lights that failed without an acknowledgement (not for the offline one)',
    },
  ],
  claims: ['turned_off'],
});
