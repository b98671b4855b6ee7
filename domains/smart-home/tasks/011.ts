import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { addDays, localDate } from '../../../lib/time.js';
import { ENERGY_PLAN_DAYS } from '../hazards/execution.js';
import { smartHomeTask } from './define.js';
import { dayMonth, devicesOf, people, person, pickFrom } from './common.js';

// Energy over more days than the basic plan serves in one request: asked in parts and added up.

export default smartHomeTask({
  id: 'smart-home/011',
  title: 'Energy use over two weeks',
  categories: ['multi-step'],
  pick({ db, random, now }) {
    const candidates = people(db).filter(({ home }) => devicesOf(db, home.home_id).some((d) => d.capabilities.includes('energy')));
    const { user, home } = pickFrom(random, candidates, 'home with metered devices');
    const days = random.int(ENERGY_PLAN_DAYS + 2, 14);
    const end_date = addDays(localDate(home.timezone, now.getTime()), -random.int(1, 6));
    return { ...person(user), start_date: addDays(end_date, 1 - days), end_date };
  },
  request: (given) =>
    `Hi, ${given.name} here (${given.user_id}). How much energy did my home use in total from ${dayMonth(given.start_date)} to ${dayMonth(given.end_date)}, ` +
    `and which device used the most?`,
  answer: z.strictObject({
    total_kwh: field.number('The energy the home used over the whole period, in kWh (to a tenth).', 0.05),
    top_device: field.id('The endpoint id of the device that used the most over the period.'),
  }),
  solve(tools, given) {
    const { home } = tools.get_user_inventory({ user_id: given.user_id });
    const usage = tools.get_energy_usage({ home_id: home.home_id, start_date: given.start_date, end_date: given.end_date });
    return { total_kwh: usage.total_kwh, top_device: usage.devices[0]!.endpoint };
  },
  targets: [
    {
      kind: 'feature_limit',
      tool: 'get_energy_usage',
      recovery: 'ask for the period in parts of 7 days or fewer (start_date, end_date) and add them up',
    },
  ],
});
