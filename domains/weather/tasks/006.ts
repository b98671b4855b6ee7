import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { addDays } from '../../../lib/time.js';
import { locate, named, pickFrom, placesOf, runAt, words } from './common.js';
import { weatherTask } from './define.js';

// Rain tomorrow: its chance and amount, where the forecast's documentation may not say that its first day
// is today and a call may fail on the way.

export default weatherTask({
  id: 'weather/006',
  title: 'Rain tomorrow',
  categories: ['single-step'],
  pick({ db, random, now }) {
    // A place where rain is possible tomorrow, with a chance that is not today's.
    const places = placesOf(db).filter((place) => {
      const [day1, day2] = runAt(db, now, 'weather_forecast', { location_id: place.id, days: 2 }).days;
      return day2!.precipitation_probability_pct >= 20 && day2!.precipitation_probability_pct !== day1!.precipitation_probability_pct;
    });
    return { place: named(db, pickFrom(random, places, 'place where it may rain tomorrow')) };
  },
  request: (given) => `Is it going to rain tomorrow in ${words(given.place)}? What are the chances, and how much?`,
  answer: z.strictObject({
    date: field.date("Tomorrow's date at the place (its local date), YYYY-MM-DD."),
    chance_pct: field.number('The chance of precipitation tomorrow, in percent, as the forecast gives it.', 0),
    precipitation_mm: field.number("Tomorrow's forecast precipitation total, in mm, to one decimal.", 0.05),
  }),
  solve(tools, given) {
    const forecast = tools.weather_forecast({ location_id: locate(tools, given.place), days: 2 });
    const date = addDays(forecast.issued_at.slice(0, 10), 1);
    const day = forecast.days.find((d) => d.date === date)!;
    return { date, chance_pct: day.precipitation_probability_pct, precipitation_mm: day.precipitation };
  },
  targets: [
    {
      kind: 'ambiguous_doc',
      tool: 'weather_forecast',
      recovery: 'pick the day by its date: tomorrow is the day after the local date of issued_at',
    },
    {
      kind: 'transient_failure',
      tool: 'weather_forecast',
      recovery: 'retry the call: the server did not run it, and the same call later succeeds',
    },
  ],
});
