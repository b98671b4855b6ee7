import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { celsius, locate, named, pickFrom, placesOf, words } from './common.js';
import { weatherTask } from './define.js';

// Three days of forecast, through failures of the server and the network.

const forecastDay = z.strictObject({
  date: field.date('The day (local date), YYYY-MM-DD.'),
  high_c: celsius("The day's forecast high."),
  low_c: celsius("The day's forecast low."),
  chance_pct: field.number('The chance of precipitation that day, in percent, as the forecast gives it.', 0),
});

export default weatherTask({
  id: 'weather/012',
  title: 'A three-day forecast',
  categories: ['single-step'],
  pick({ db, random }) {
    return { place: named(db, pickFrom(random, placesOf(db), 'place')), days: 3 };
  },
  request: (given) => `Can you give me the forecast for ${words(given.place)} for the next ${given.days} days, today included?`,
  answer: z.strictObject({ days: field.list(forecastDay, 'Today and the next two days, in order.') }),
  solve(tools, given) {
    const { days } = tools.weather_forecast({ location_id: locate(tools, given.place), days: given.days });
    return {
      days: days.map((day) => ({ date: day.date, high_c: day.temperature_max, low_c: day.temperature_min, chance_pct: day.precipitation_probability_pct })),
    };
  },
  targets: [
    {
      kind: 'transient_failure',
      tool: 'weather_forecast',
      recovery: 'retry the call: the server did not run it, and the same call later succeeds',
    },
    {
      kind: 'latency',
      tool: 'weather_forecast',
      recovery: 'retry the call after the gateway timeout: nothing was changed and the next attempt answers in time',
    },
    {
      kind: 'transport_fault',
      tool: 'weather_forecast',
      recovery: 'retry the call after the reset, empty reply or broken body',
    },
  ],
});
