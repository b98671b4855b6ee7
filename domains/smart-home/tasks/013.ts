import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { smartHomeTask } from './define.js';
import { devicesOf, namesFor, named, people, person, pickFrom, spoken } from './common.js';

// Two dimmable lights that are on, read at once: the second answer comes in the telemetry's new shape.

export default smartHomeTask({
  id: 'smart-home/013',
  title: 'How bright are the bedroom lights?',
  categories: ['parallel'],
  pick({ db, random }) {
    const candidates = people(db).flatMap(({ user, home }) => {
      const devices = devicesOf(db, home.home_id);
      const lit = devices.filter((d) => (d.type === 'dimmer' || d.type === 'color_bulb') && d.online && d.state.power === 'on');
      return lit.length >= 2 ? [{ user, devices, lit }] : [];
    });
    const { user, devices, lit } = pickFrom(random, candidates, 'home with two dimmable lights on');
    const lights = random.sample(lit, 2).map((light) => spoken(random.pick(namesFor(light, devices))));
    return { ...person(user), lights };
  },
  request: (given) => `${given.name} (${given.user_id}) here. How bright are ${given.lights[0]} and ${given.lights[1]} right now?`,
  answer: z.strictObject({
    lights: field.set(
      z.strictObject({
        light: field.id('The endpoint id of the light.'),
        brightness: field.count('Its brightness in percent (0–100), as the light reports it.'),
      }),
      'Each of the two lights.',
    ),
  }),
  solve(tools, given) {
    const { devices } = tools.get_user_inventory({ user_id: given.user_id });
    return {
      lights: given.lights.map((phrase) => {
        const { endpoint } = named(devices, phrase);
        return { light: endpoint, brightness: tools.get_device_telemetry({ endpoint }).state.brightness! };
      }),
    };
  },
  targets: [
    {
      kind: 'output_drift',
      tool: 'get_device_telemetry',
      recovery: 'read the new shape: attributes.level on a 0–254 scale (level_max) is the brightness, on_off the power',
    },
  ],
});
