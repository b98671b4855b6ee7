import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { addDays } from '../../../lib/time.js';
import { celsius, locate, named, pickFrom, placesOf, runAt, words } from './common.js';
import { weatherTask } from './define.js';

// Tomorrow's high, where the forecast's documentation may not say that its first day is today.

export default weatherTask({
  id: 'weather/005',
  title: "Tomorrow's high",
  categories: ['single-step'],
  pick({ db, random, now }) {
    // A place whose high tomorrow is not today's: reading the wrong day shows.
    const places = placesOf(db).filter((place) => {
      const [day1, day2] = runAt(db, now, 'weather_forecast', { location_id: place.id, days: 2 }).days;
      return Math.abs(day1!.temperature_max - day2!.temperature_max) >= 0.5;
    });
    return { place: named(db, pickFrom(random, places, 'place whose high changes tomorrow')) };
  },
  request: (given) => `What's the high going to be tomorrow in ${words(given.place)}?`,
  answer: z.strictObject({
    date: field.date("Tomorrow's date at the place (its local date), YYYY-MM-DD."),
    high_c: celsius("Tomorrow's forecast high."),
  }),
  solve(tools, given) {
    const forecast = tools.weather_forecast({ location_id: locate(tools, given.place), days: 2 });
    const date = addDays(forecast.issued_at.slice(0, 10), 1);
    const day = forecast.days.find((d) => d.date === date)!;
    return { date, high_c: day.temperature_max };
  },
  targets: [
    {
      kind: 'ambiguous_doc',
      tool: 'weather_forecast',
      recovery: 'pick the day by its date: tomorrow is the day after the local date of issued_at',
    },
  ],
});
