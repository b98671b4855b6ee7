import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { celsius, locate, named, pickFrom, placesOf, words } from './common.js';
import { weatherTask } from './define.js';

// Five days asked of a plan that serves three: a call for five days is refused, and the refusal says how
// many the plan serves. What the person needs first is within them.

export default weatherTask({
  id: 'weather/030',
  title: 'Five days on a limited plan',
  categories: ['partial'],
  pick({ db, random }) {
    return { place: named(db, pickFrom(random, placesOf(db), 'place')), days: 3, stay: 5 };
  },
  request: (given) =>
    `I'm in ${words(given.place)} for the next ${given.stay} days, today included. What's the forecast for each day? Most of all I need the highs and the ` +
    `chances of rain for today and the next two days.`,
  answer: z.strictObject({
    days: field.list(
      z.strictObject({
        date: field.date('The day (local date), YYYY-MM-DD.'),
        high_c: celsius("The day's forecast high."),
        chance_pct: field.number('The chance of precipitation that day, in percent, as the forecast gives it.', 0),
      }),
      'Today, tomorrow and the day after, in order.',
    ),
  }),
  solve(tools, given) {
    const { days } = tools.weather_forecast({ location_id: locate(tools, given.place), days: given.days });
    return { days: days.map((day) => ({ date: day.date, high_c: day.temperature_max, chance_pct: day.precipitation_probability_pct })) };
  },
  targets: [
    {
      kind: 'feature_limit',
      tool: 'weather_forecast',
      recovery: 'ask for the 3 days the plan serves; give those and say that the other 2 days need a premium plan, without filling them in',
    },
  ],
});
