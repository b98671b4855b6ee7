import { z } from 'zod';
import { conditionsNow, locate, named, nowIn, pickNow, words } from './common.js';
import { weatherTask } from './define.js';

// Now in Fahrenheit in two places where the model answers (common.ts: pickNow): the second answer of weather_current comes
// in the other unit system, which its units field says, and a call may time out.

export default weatherTask({
  id: 'weather/026',
  title: 'Now in Fahrenheit',
  categories: ['multi-step'],
  clock: { start: '2024-05-12T18:00:00-05:00' },
  pick({ db, random, now }) {
    const [first, second] = pickNow(db, random, now, { count: 2, units: 'imperial' });
    return { places: [named(db, first!), named(db, second!)] };
  },
  request: (given) => `What's the temperature right now in ${words(given.places[0]!)} and in ${words(given.places[1]!)}? Please give it in Fahrenheit.`,
  answer: z.strictObject({
    first_place_f: nowIn('°F', 'The temperature now in the first place the request names.'),
    second_place_f: nowIn('°F', 'The temperature now in the second place the request names.'),
  }),
  solve(tools, given) {
    const [first, second] = given.places.map((place) => conditionsNow(tools, locate(tools, place), 'imperial').temperature) as [number, number];
    return { first_place_f: first, second_place_f: second };
  },
  targets: [
    {
      kind: 'output_drift',
      tool: 'weather_current',
      recovery: 'read the units field: a value that comes in °C is converted to °F, not read as °F',
    },
    {
      kind: 'latency',
      tool: 'weather_current',
      recovery: 'retry the call after the gateway timeout: nothing was changed and the next attempt answers in time',
    },
  ],
});
