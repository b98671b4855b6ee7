import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { ForecastDay, locate, named, pickFrom, placesOf, words } from './common.js';
import { weatherTask } from './define.js';

// The week ahead on a plan that serves three days of forecast: a call for the week is refused, and the
// refusal says how many days the plan serves. The days the person needs first are within them.

export default weatherTask({
  id: 'weather/013',
  title: 'The week ahead on a limited plan',
  categories: ['partial'],
  pick({ db, random }) {
    return { place: named(db, pickFrom(random, placesOf(db), 'place')), days: 3 };
  },
  request: (given) => `What does the week ahead look like in ${words(given.place)}? Highs and lows, please: today and the next two days are what I need first.`,
  answer: z.strictObject({ days: field.list(ForecastDay, 'Today, tomorrow and the day after, in order.') }),
  solve(tools, given) {
    const { days } = tools.weather_forecast({ location_id: locate(tools, given.place), days: given.days });
    return { days: days.map((day) => ({ date: day.date, high_c: day.temperature_max, low_c: day.temperature_min })) };
  },
  targets: [
    {
      kind: 'feature_limit',
      tool: 'weather_forecast',
      recovery: 'ask for the 3 days the plan serves; give those and say that the other 4 days need a premium plan, without filling them in',
    },
  ],
});
