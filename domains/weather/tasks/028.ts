import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { locate, named, pickFrom, placesOf, runAt, words } from './common.js';
import { weatherTask } from './define.js';

// Rain at the weekend, from a forecast that may time out or break on the way. The clock is a Friday: the
// weekend is within the three days any plan serves.

const WEEKEND = ['2024-05-18', '2024-05-19'] as const;

export default weatherTask({
  id: 'weather/028',
  title: 'Rain at the weekend',
  categories: ['multi-step'],
  clock: { start: '2024-05-17T15:00:00-05:00' },
  pick({ db, random, now }) {
    // A place where rain is possible at the weekend.
    const places = placesOf(db).filter((place) => {
      const { days } = runAt(db, now, 'weather_forecast', { location_id: place.id, days: 3 });
      return days.filter((day) => WEEKEND.includes(day.date as (typeof WEEKEND)[number])).some((day) => day.precipitation_probability_pct >= 20);
    });
    return { place: named(db, pickFrom(random, places, 'place where it may rain at the weekend')), weekend: [...WEEKEND] };
  },
  request: (given) => `Will it rain in ${words(given.place)} this weekend (Saturday May 18 and Sunday May 19)?`,
  answer: z.strictObject({
    days: field.list(
      z.strictObject({
        date: field.date('The day, YYYY-MM-DD.'),
        chance_pct: field.number('The chance of precipitation that day, in percent, as the forecast gives it.', 0),
        precipitation_mm: field.number("The day's forecast precipitation total, in mm, to one decimal.", 0.05),
      }),
      'Saturday, then Sunday.',
    ),
  }),
  solve(tools, given) {
    const { days } = tools.weather_forecast({ location_id: locate(tools, given.place), days: 3 });
    return {
      days: given.weekend
        .map((date) => days.find((day) => day.date === date)!)
        .map((day) => ({
          date: day.date,
          chance_pct: day.precipitation_probability_pct,
          precipitation_mm: day.precipitation,
        })),
    };
  },
  targets: [
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
