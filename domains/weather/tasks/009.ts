import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { addDays } from '../../../lib/time.js';
import { NoInstance } from '../../task.js';
import { celsius, locate, named, placesOf, runAt, spokenMonth, sum1, today, words } from './common.js';
import { weatherTask } from './define.js';

// A past month's rain and its warmest day, from an archive that may cut its answer short (and wants an API
// version named in its error): the whole month counts.

/** The first and last days of the month `back` months before the one holding `date`. */
function monthBefore(date: string, back: number): { month: string; start: string; end: string } {
  const [y, m] = date.split('-').map(Number) as [number, number];
  const first = new Date(Date.UTC(y, m - 1 - back, 1));
  const start = first.toISOString().slice(0, 10);
  const end = addDays(new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 1)).toISOString().slice(0, 10), -1);
  return { month: start.slice(0, 7), start, end };
}

export default weatherTask({
  id: 'weather/009',
  title: "A month's rain and its warmest day",
  categories: ['multi-step'],
  pick({ db, random, now }) {
    const options = random.shuffle(placesOf(db).flatMap((place) => [1, 2, 3, 4, 5, 6].map((back) => ({ place, ...monthBefore(today(place, now), back) }))));
    // A month with rain (on its last day too: a list cut short shows in the total), and one warmest day (no tie).
    const found = options.find(({ place, start, end }) => {
      const { days } = runAt(db, now, 'historical_weather', { location_id: place.id, start_date: start, end_date: end });
      const highs = days.map((day) => day.temperature_max);
      return (
        sum1(days.map((day) => day.precipitation)) >= 5 && days.at(-1)!.precipitation > 0 && highs.filter((high) => high === Math.max(...highs)).length === 1
      );
    });
    if (!found) throw new NoInstance('weather/009: no month with rain and one warmest day');
    return { place: named(db, found.place), month: found.month };
  },
  request: (given) => `How much rain fell in ${words(given.place)} in ${spokenMonth(given.month)} altogether, and which day that month was the warmest?`,
  answer: z.strictObject({
    precipitation_mm: field.number("The month's total precipitation, in mm, to one decimal.", 0.05),
    warmest_date: field.date('The warmest day of the month (the highest high), YYYY-MM-DD.'),
    warmest_high_c: celsius('The high of that day.'),
  }),
  solve(tools, given) {
    const { start, end } = monthBefore(`${given.month}-15`, 0);
    const { days } = tools.historical_weather({ location_id: locate(tools, given.place), start_date: start, end_date: end });
    const top = days.reduce((best, day) => (day.temperature_max > best.temperature_max ? day : best));
    return { precipitation_mm: sum1(days.map((day) => day.precipitation)), warmest_date: top.date, warmest_high_c: top.temperature_max };
  },
  targets: [
    {
      kind: 'truncated',
      tool: 'historical_weather',
      recovery: 'call again from next_start_date until has_more is false, then sum the whole month',
    },
    {
      kind: 'invocation_error',
      tool: 'historical_weather',
      recovery: 'repeat the call with the api_version the error names',
    },
  ],
});
