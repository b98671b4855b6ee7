import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { locate, named, pickSome, placesOf, words } from './common.js';
import { weatherTask } from './define.js';

// The next hours of two places, one call each: the second call meets the hours parameter renamed.

const hoursOf = (description: string) =>
  field.list(
    field.number('A temperature in °C, to one decimal, as weather_hourly gives it.', 0.05),
    `${description}: the temperature of each hour asked for, from the current hour on, in order.`,
  );

export default weatherTask({
  id: 'weather/003',
  title: 'The next hours in two cities',
  categories: ['parallel', 'multi-step'],
  pick({ db, random }) {
    const [first, second] = pickSome(random, placesOf(db), 2, 'places');
    return { places: [named(db, first!), named(db, second!)], hours: random.int(4, 8) };
  },
  request: (given) =>
    `What temperatures are forecast hour by hour for the next ${given.hours} hours in ${words(given.places[0]!)} and in ${words(given.places[1]!)}?`,
  answer: z.strictObject({
    first_place: hoursOf('The first place the request names'),
    second_place: hoursOf('The second place the request names'),
  }),
  solve(tools, given) {
    const [first, second] = given.places.map((place) =>
      tools.weather_hourly({ location_id: locate(tools, place), hours: given.hours }).hours.map((hour) => hour.temperature),
    );
    return { first_place: first!, second_place: second! };
  },
  targets: [
    {
      kind: 'spec_drift',
      tool: 'weather_hourly',
      recovery: 're-read the listing after the 400 and send the hours under their new name (horizon_hours)',
    },
  ],
});
