import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { smartHomeTask } from './define.js';
import { devicesOf, people, person, pickFrom } from './common.js';

// Yesterday's energy and its cost: a cached total lags behind the devices' own figures, which add up to it.

export default smartHomeTask({
  id: 'smart-home/018',
  title: 'Energy used yesterday',
  categories: ['single-step'],
  pick({ db, random }) {
    const candidates = people(db).filter(({ home }) => devicesOf(db, home.home_id).some((d) => d.capabilities.includes('energy')));
    return person(pickFrom(random, candidates, 'home with metered devices').user);
  },
  request: (given) => `${given.name} here, user id ${given.user_id}. What was our energy use yesterday, and what did it cost?`,
  answer: z.strictObject({
    total_kwh: field.number('The energy the home used yesterday, in kWh (to a tenth).', 0.05),
    total_cost: field.money("What it cost, in the home's currency."),
    currency: field.id('The currency of the cost (ISO 4217 code).'),
  }),
  solve(tools, given) {
    const { home } = tools.get_user_inventory({ user_id: given.user_id });
    const usage = tools.get_energy_usage({ home_id: home.home_id, period: 'yesterday' });
    return { total_kwh: usage.total_kwh, total_cost: usage.total_cost, currency: usage.currency };
  },
  targets: [
    {
      kind: 'stale_data',
      tool: 'get_energy_usage',
      recovery: 'the total must be the sum of the devices: when the cached total is not, add the devices up',
    },
  ],
});
