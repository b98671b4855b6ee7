import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { smartHomeTask } from './define.js';
import { devicesOf, inSync, isLighting, namesFor, named, POWER_STATES, people, person, pickFrom, spoken } from './common.js';

// One light's power, from its telemetry: beside the reported state, a device shadow may hold a desired one.

export default smartHomeTask({
  id: 'smart-home/017',
  title: 'Is the porch light on?',
  categories: ['single-step'],
  pick({ db, random }) {
    const candidates = people(db).flatMap(({ user, home }) => {
      const devices = devicesOf(db, home.home_id);
      return devices
        .filter((d) => isLighting(d) && d.online && inSync(d, ['power']))
        .flatMap((light) => namesFor(light, devices).map((name) => ({ user, name })));
    });
    const { user, name } = pickFrom(random, candidates, 'light online');
    return { ...person(user), light: spoken(name) };
  },
  request: (given) => `${given.name} (${given.user_id}). ${/\blights\b/.test(given.light) ? 'Are' : 'Is'} ${given.light} on?`,
  answer: z.strictObject({
    light: field.id('The endpoint id of the light.'),
    power: field.choice(POWER_STATES, 'Its power, as the light reports it now.'),
  }),
  solve(tools, given) {
    const { devices } = tools.get_user_inventory({ user_id: given.user_id });
    const { endpoint } = named(devices, given.light);
    return { light: endpoint, power: tools.get_device_telemetry({ endpoint }).state.power! };
  },
  targets: [
    {
      kind: 'redundant',
      tool: 'get_device_telemetry',
      recovery: "what the device does is its reported state; the shadow's desired state is a pending request",
    },
  ],
});
