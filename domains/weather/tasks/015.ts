import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { conditionsNow, locate, modelTemperature, named, pickNow, words } from './common.js';
import { weatherTask } from './define.js';

// Two places where the model answers (common.ts: pickNow), compared now: the second answer of weather_current comes in the
// other unit system, which its units field says.

export default weatherTask({
  id: 'weather/015',
  title: 'Which city is warmer now',
  categories: ['parallel', 'multi-step'],
  clock: { start: '2024-05-13T12:00:00-05:00' },
  pick({ db, random, now }) {
    // Far enough apart that which is warmer is plain.
    const [first, second] = pickNow(db, random, now, {
      count: 2,
      apart: (a, b) => Math.abs(modelTemperature(db, a.id, now) - modelTemperature(db, b.id, now)) >= 1,
    });
    return { places: [named(db, first!), named(db, second!)] };
  },
  request: (given) => `Which is warmer right now, ${words(given.places[0]!)} or ${words(given.places[1]!)}, and by how many degrees Celsius?`,
  answer: z.strictObject({
    warmer: field.text('The warmer place, by its name.'),
    difference_c: field.number('How much warmer it is, in °C, to one decimal.', 0.2),
  }),
  solve(tools, given) {
    const [first, second] = given.places.map((place) => conditionsNow(tools, locate(tools, place)).temperature) as [number, number];
    return { warmer: (first > second ? given.places[0]! : given.places[1]!).name, difference_c: Math.round(Math.abs(first - second) * 10) / 10 };
  },
  targets: [
    {
      kind: 'output_drift',
      tool: 'weather_current',
      recovery: 'read the units field of each answer: a value in °F is converted, not read as °C',
    },
  ],
});
