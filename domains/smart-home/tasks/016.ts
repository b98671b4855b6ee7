import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { smartHomeTask } from './define.js';
import { devicesOf, inSync, isLighting, people, person, pickFrom } from './common.js';

// Every light of the home, room by room: an inventory cut short names the rooms it left out.

export default smartHomeTask({
  id: 'smart-home/016',
  title: 'Which lights are on?',
  categories: ['multi-step', 'parallel'],
  pick({ db, random }) {
    const candidates = people(db).filter(({ home }) => {
      const lights = devicesOf(db, home.home_id).filter(isLighting);
      return lights.some((d) => d.online && d.state.power === 'on') && lights.every((d) => inSync(d, ['power']));
    });
    return person(pickFrom(random, candidates, 'home with a light on').user);
  },
  request: (given) => `${given.name} here (${given.user_id}). Before I go to bed: which lights in the house are still on?`,
  answer: z.strictObject({
    on: field.set(field.id('A light, by endpoint id.'), 'The lights that are on, as they report themselves.'),
    off: field.set(field.id('A light, by endpoint id.'), 'The lights that are off, as they report themselves.'),
    offline: field.set(field.id('A light, by endpoint id.'), 'The lights that are offline, whose state cannot be read now.'),
  }),
  solve(tools, given) {
    const { devices } = tools.get_user_inventory({ user_id: given.user_id });
    const lights = devices.filter((d) => ['light', 'dimmer', 'color_bulb'].includes(d.type));
    const online = lights.filter((d) => d.online);
    const power = new Map(online.map((d) => [d.endpoint, tools.get_device_telemetry({ endpoint: d.endpoint }).state.power]));
    return {
      on: online.filter((d) => power.get(d.endpoint) === 'on').map((d) => d.endpoint),
      off: online.filter((d) => power.get(d.endpoint) !== 'on').map((d) => d.endpoint),
      offline: lights.filter((d) => !d.online).map((d) => d.endpoint),
    };
  },
  targets: [
    {
      kind: 'truncated',
      tool: 'get_user_inventory',
      recovery: 'list each omitted room with get_group_devices and add its devices',
      via: ['get_group_devices'],
    },
  ],
});
