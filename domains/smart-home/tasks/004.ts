import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { smartHomeTask } from './define.js';
import { devicesOf, isLighting, namesFor, named, POWER_STATES, people, person, pickFrom, spoken } from './common.js';

// A light that is off, named as the person speaks of it.

export default smartHomeTask({
  id: 'smart-home/004',
  title: 'Turn on the hallway light',
  categories: ['single-step'],
  pick({ db, random }) {
    const candidates = people(db).flatMap(({ user, home }) => {
      const devices = devicesOf(db, home.home_id);
      return devices
        .filter((d) => isLighting(d) && d.online && d.state.power === 'off')
        .flatMap((light) => namesFor(light, devices).map((name) => ({ user, name })));
    });
    const { user, name } = pickFrom(random, candidates, 'light that is off');
    return { ...person(user), light: spoken(name) };
  },
  request: (given) => `Hey, ${given.name} here, user id ${given.user_id}. Could you turn on ${given.light}?`,
  answer: z.strictObject({
    light: field.id('The endpoint id of the light you turned on.'),
    power: field.choice(POWER_STATES, "The light's power now, as the command's answer reports it."),
    brightness: field.nullable(field.count("Its brightness now in percent, as the command's answer reports it; null for a light that does not dim.")),
  }),
  solve(tools, given) {
    const { devices } = tools.get_user_inventory({ user_id: given.user_id });
    const { endpoint } = named(devices, given.light);
    const state = tools.power_on({ endpoints: [endpoint] }).results[0]!.state!;
    return { light: endpoint, power: state.power!, brightness: state.brightness ?? null };
  },
  targets: [
    {
      kind: 'lookalike',
      tool: 'power_on',
      recovery: 'use the maintained power_on, not the deprecated device_set_power beside it in the listing',
    },
    {
      kind: 'transport_fault',
      tool: 'power_on',
      recovery: 'send power_on again (with the same idempotency key): a command cut off before it ran was not applied',
    },
  ],
  claims: ['power'],
});
