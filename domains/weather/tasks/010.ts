import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { addDays } from '../../../lib/time.js';
import { NoInstance } from '../../task.js';
import { locate, named, placesOf, runAt, spoken, sum1, today, words } from './common.js';
import { weatherTask } from './define.js';

// Rain over about ten weeks: more than one call of at most 31 days, each of which the archive may cut
// short (and wants an API version named in its error).

const MAX_DAYS = 31;

/** The periods of at most 31 days that cover a range. */
function periods(start: string, end: string): [string, string][] {
  const out: [string, string][] = [];
  for (let from = start; from <= end; from = addDays(from, MAX_DAYS)) {
    const to = addDays(from, MAX_DAYS - 1);
    out.push([from, to < end ? to : end]);
  }
  return out;
}

export default weatherTask({
  id: 'weather/010',
  title: 'Rain over ten weeks',
  categories: ['multi-step'],
  pick({ db, random, now }) {
    for (let tries = 0; tries < 200; tries++) {
      const place = random.pick(placesOf(db));
      const end = addDays(today(place, now), -random.int(2, 40));
      const start = addDays(end, -random.int(60, 75));
      const days = periods(start, end).flatMap(
        ([from, to]) => runAt(db, now, 'historical_weather', { location_id: place.id, start_date: from, end_date: to }).days,
      );
      // A period with a few rainy days, and rain on the last day of its first 31 (a list cut short shows in the total).
      if (days.filter((day) => day.precipitation >= 1).length >= 2 && days[MAX_DAYS - 1]!.precipitation > 0) return { place: named(db, place), start, end };
    }
    throw new NoInstance('weather/010: no period with rain');
  },
  request: (given) =>
    `What was the total precipitation in ${words(given.place)} from ${spoken(given.start, given.start.slice(0, 4) !== given.end.slice(0, 4))} ` +
    `to ${spoken(given.end, true)}, and on how many of those days did at least 1 mm fall?`,
  answer: z.strictObject({
    precipitation_mm: field.number("The period's total precipitation, in mm, to one decimal.", 0.05),
    wet_days: field.count('The number of days of the period with at least 1 mm of precipitation.'),
  }),
  solve(tools, given) {
    const location_id = locate(tools, given.place);
    const days = periods(given.start, given.end).flatMap(([from, to]) => tools.historical_weather({ location_id, start_date: from, end_date: to }).days);
    return { precipitation_mm: sum1(days.map((day) => day.precipitation)), wet_days: days.filter((day) => day.precipitation >= 1).length };
  },
  targets: [
    {
      kind: 'truncated',
      tool: 'historical_weather',
      recovery: 'call again from next_start_date until has_more is false for each period of at most 31 days',
    },
    {
      kind: 'invocation_error',
      tool: 'historical_weather',
      recovery: 'repeat the call with the api_version the error names',
    },
  ],
});
