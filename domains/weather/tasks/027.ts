import { z } from 'zod';
import { conditionsNow, locate, named, nowIn, pickNow, words } from './common.js';
import { weatherTask } from './define.js';

// Now in two places where the model answers (common.ts: pickNow), while the model's nowcast is down: the current hour of the
// hourly forecast is the same model's estimate (the places' hours start on the nowcast's step).

export default weatherTask({
  id: 'weather/027',
  title: 'Now in two places while the nowcast is down',
  categories: ['parallel'],
  pick({ db, random, now }) {
    const [first, second] = pickNow(db, random, now, { count: 2 });
    return { places: [named(db, first!), named(db, second!)] };
  },
  request: (given) => `What's the temperature right now in ${words(given.places[0]!)} and in ${words(given.places[1]!)}?`,
  answer: z.strictObject({
    first_place_c: nowIn('°C', 'The temperature now in the first place the request names.'),
    second_place_c: nowIn('°C', 'The temperature now in the second place the request names.'),
  }),
  solve(tools, given) {
    const [first, second] = given.places.map((place) => conditionsNow(tools, locate(tools, place)).temperature) as [number, number];
    return { first_place_c: first, second_place_c: second };
  },
  targets: [
    {
      kind: 'outage',
      tool: 'weather_current',
      recovery: "no station qualifies in either place: use the current hour of weather_hourly, the same model's estimate, and say so",
      via: ['weather_hourly'],
    },
  ],
});
