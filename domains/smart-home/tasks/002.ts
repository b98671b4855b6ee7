import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { TEMPERATURE_UNITS } from '../schema.js';
import { smartHomeTask } from './define.js';
import { comfortable, devicesOf, namesFor, named, people, person, pickFrom, spoken } from './common.js';

// Two thermostats of the person's home, each to its own temperature, given in the person's unit: the second
// setting meets the renamed parameter.

export default smartHomeTask({
  id: 'smart-home/002',
  title: 'Set two thermostats to different temperatures',
  categories: ['multi-step'],
  pick({ db, random }) {
    const candidates = people(db).flatMap(({ user, home }) => {
      const devices = devicesOf(db, home.home_id);
      const thermostats = devices.filter((d) => d.type === 'thermostat' && d.online && d.state.mode !== 'off');
      return thermostats.length === 2 ? [{ user, devices, thermostats }] : [];
    });
    const { user, devices, thermostats } = pickFrom(random, candidates, 'home with two thermostats holding a setpoint');
    const unit = user.preferences.temperature_unit;
    const settings = random.shuffle(thermostats).map((thermostat) => {
      const choices = comfortable(thermostat.state.mode!, unit).filter((t) => t !== thermostat.state.target_temperature);
      return { thermostat: spoken(random.pick(namesFor(thermostat, devices))), temperature: random.pick(choices) };
    });
    return { ...person(user), settings };
  },
  request: (given) =>
    `${given.name} here (user id ${given.user_id}). Please set ${given.settings[0]!.thermostat} to ${given.settings[0]!.temperature} degrees ` +
    `and ${given.settings[1]!.thermostat} to ${given.settings[1]!.temperature}.`,
  answer: z.strictObject({
    thermostats: field.set(
      z.strictObject({
        thermostat: field.id('The endpoint id of the thermostat.'),
        target_temperature: field.number('Its target temperature now, as the thermostat holds it in its own display unit.', 0.01),
        unit: field.choice(TEMPERATURE_UNITS, "The thermostat's display unit."),
      }),
      'Each thermostat you set, as its command answered.',
    ),
  }),
  solve(tools, given) {
    const { user, devices } = tools.get_user_inventory({ user_id: given.user_id });
    const unit = user.preferences.temperature_unit;
    return {
      thermostats: given.settings.map(({ thermostat, temperature }) => {
        const { endpoint } = named(devices, thermostat);
        const state = tools.temperature_set({ endpoints: [endpoint], temperature, unit }).results[0]!.state!;
        return { thermostat: endpoint, target_temperature: state.target_temperature!, unit: state.unit! };
      }),
    };
  },
  targets: [
    {
      kind: 'spec_drift',
      tool: 'temperature_set',
      recovery: 're-read the listing after the 400 on the old parameter and send the temperature under its new name',
    },
  ],
  claims: ['thermostats'],
});
