import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { TEMPERATURE_UNITS, THERMOSTAT_MODES } from '../schema.js';
import { smartHomeTask } from './define.js';
import { comfortable, devicesOf, namesFor, named, people, person, pickFrom, spoken } from './common.js';

// One thermostat switched to heating and set, another set as it is: three writes, the later ones meeting the
// renamed parameter. Temperatures are in the person's unit.

export default smartHomeTask({
  id: 'smart-home/028',
  title: 'Heat upstairs and set both thermostats',
  categories: ['multi-step'],
  pick({ db, random }) {
    const candidates = people(db).flatMap(({ user, home }) => {
      const devices = devicesOf(db, home.home_id);
      const thermostats = devices.filter((d) => d.type === 'thermostat' && d.online);
      if (thermostats.length !== 2) return [];
      // The one to heat, and the other, which must hold a setpoint as it is.
      return thermostats.flatMap((heat) => {
        const other = thermostats.find((t) => t !== heat)!;
        return other.state.mode === 'off' ? [] : [{ user, devices, heat, other }];
      });
    });
    const { user, devices, heat, other } = pickFrom(random, candidates, 'home with two thermostats');
    const unit = user.preferences.temperature_unit;
    const name = (device: typeof heat) => spoken(random.pick(namesFor(device, devices)));
    return {
      ...person(user),
      heat: { thermostat: name(heat), temperature: random.pick(comfortable('heat', unit)) },
      set: { thermostat: name(other), temperature: random.pick(comfortable(other.state.mode!, unit)) },
    };
  },
  request: (given) =>
    `${given.name} (${given.user_id}). Switch ${given.heat.thermostat} to heating and set it to ${given.heat.temperature}, and set ${given.set.thermostat} ` +
    `to ${given.set.temperature}.`,
  answer: z.strictObject({
    thermostats: field.set(
      z.strictObject({
        thermostat: field.id('The endpoint id of the thermostat.'),
        mode: field.choice(THERMOSTAT_MODES, 'Its mode now.'),
        target_temperature: field.number('Its target temperature now, as the thermostat holds it in its own display unit.', 0.01),
        unit: field.choice(TEMPERATURE_UNITS, "The thermostat's display unit."),
      }),
      'Each thermostat you set, as its last command answered.',
    ),
  }),
  solve(tools, given) {
    const { user, devices } = tools.get_user_inventory({ user_id: given.user_id });
    const unit = user.preferences.temperature_unit;
    const heat = named(devices, given.heat.thermostat).endpoint;
    const other = named(devices, given.set.thermostat).endpoint;
    tools.mode_set({ endpoints: [heat], mode: 'heat' });
    const set = (endpoint: string, temperature: number) => {
      const state = tools.temperature_set({ endpoints: [endpoint], temperature, unit }).results[0]!.state!;
      return { thermostat: endpoint, mode: state.mode!, target_temperature: state.target_temperature!, unit: state.unit! };
    };
    return { thermostats: [set(heat, given.heat.temperature), set(other, given.set.temperature)] };
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
