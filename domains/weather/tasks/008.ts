import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { addDays } from '../../../lib/time.js';
import { celsius, locate, named, pickFrom, placesOf, spoken, today, words } from './common.js';
import { weatherTask } from './define.js';

// The highs of a past week, from an archive that wants an API version named in its error (and may cut its
// answer short).

export default weatherTask({
  id: 'weather/008',
  title: 'Highs of a past week',
  categories: ['single-step'],
  pick({ db, random, now }) {
    const place = pickFrom(random, placesOf(db), 'place');
    const end = addDays(today(place, now), -random.int(2, 60));
    return { place: named(db, place), start: addDays(end, -6), end };
  },
  request: (given) => `What were the daily high temperatures in ${words(given.place)} from ${spoken(given.start)} to ${spoken(given.end, true)}?`,
  answer: z.strictObject({
    highs: field.list(
      z.strictObject({ date: field.date('The day, YYYY-MM-DD.'), high_c: celsius("The day's high.") }),
      'Every day of the period, in date order.',
    ),
  }),
  solve(tools, given) {
    const { days } = tools.historical_weather({ location_id: locate(tools, given.place), start_date: given.start, end_date: given.end });
    return { highs: days.map((day) => ({ date: day.date, high_c: day.temperature_max })) };
  },
  targets: [
    {
      kind: 'invocation_error',
      tool: 'historical_weather',
      recovery: 'repeat the call with the api_version the error names',
    },
  ],
});
