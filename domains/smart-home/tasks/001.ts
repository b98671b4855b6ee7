import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { COLOR_NAMES } from '../colors.js';
import { smartHomeTask } from './define.js';
import { devicesOf, namesFor, named, people, person, pickFrom, spoken } from './common.js';

// A colour bulb named as the person speaks of it, on or off: colouring it takes finding it, and turning it on
// first when it is off.

/** Colours people ask for by name. */
const COLORS = ['red', 'orange', 'yellow', 'green', 'blue', 'purple', 'pink', 'teal'] as const;

export default smartHomeTask({
  id: 'smart-home/001',
  title: 'Make the sofa lamp red',
  categories: ['single-step'],
  pick({ db, random }) {
    const candidates = people(db).flatMap(({ user, home }) => {
      const devices = devicesOf(db, home.home_id);
      return devices.filter((d) => d.type === 'color_bulb' && d.online).flatMap((lamp) => namesFor(lamp, devices).map((name) => ({ user, lamp, name })));
    });
    const { user, lamp, name } = pickFrom(random, candidates, 'colour bulb online');
    const color = random.pick(COLORS.filter((c) => COLOR_NAMES[c] !== lamp.state.color));
    return { ...person(user), lamp: spoken(name), color };
  },
  request: (given) => `Hi, it's ${given.name}, user id ${given.user_id}. Can you make ${given.lamp} ${given.color}?`,
  answer: z.strictObject({
    lamp: field.id('The endpoint id of the lamp you coloured.'),
    turned_on: field.flag('Whether the lamp was off, so that you turned it on first.'),
    color: field.id("The lamp's colour now, as the hex code '#RRGGBB' its state reports."),
    brightness: field.count("The lamp's brightness now, in percent, as its state reports."),
  }),
  solve(tools, given) {
    const { devices } = tools.get_user_inventory({ user_id: given.user_id });
    const lamp = named(devices, given.lamp);
    const off = tools.get_device_telemetry({ endpoint: lamp.endpoint }).state.power !== 'on';
    if (off) tools.power_on({ endpoints: [lamp.endpoint] });
    const state = tools.color_set({ endpoints: [lamp.endpoint], color: given.color }).results[0]!.state!;
    return { lamp: lamp.endpoint, turned_on: off, color: state.color!, brightness: state.brightness! };
  },
  targets: [
    {
      kind: 'adhoc_rule',
      tool: 'color_set',
      recovery: "send the colour as a hex code ('#FF0000' for red), as the tool's re-read description asks",
    },
  ],
  claims: ['color'],
});
