import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { conditionsNow, locate, lookalikeTemperature, modelTemperature, named, nowIn, pickNow, words } from './common.js';
import { weatherTask } from './define.js';

// Two places where the model answers (common.ts: pickNow), compared now: from the maintained weather_current, not from its
// deprecated look-alike, which serves a feed hours behind; a call may fail on the way.

export default weatherTask({
  id: 'weather/032',
  title: 'Which place is colder now',
  categories: ['multi-step'],
  pick({ db, random, now }) {
    // Where the look-alike's lagging feed gives another figure.
    // Places a degree apart, where the look-alike's lagging feed gives another figure.
    const [first, second] = pickNow(db, random, now, {
      count: 2,
      where: (place) => Math.abs(lookalikeTemperature(db, place.id, now) - modelTemperature(db, place.id, now)) >= 0.5,
      apart: (a, b) => Math.abs(modelTemperature(db, a.id, now) - modelTemperature(db, b.id, now)) >= 1,
    });
    return { places: [named(db, first!), named(db, second!)] };
  },
  request: (given) => `Which is colder right now: ${words(given.places[0]!)} or ${words(given.places[1]!)}?`,
  answer: z.strictObject({
    colder: field.text('The colder place, by its name.'),
    first_place_c: nowIn('°C', 'The temperature now in the first place the request names.'),
    second_place_c: nowIn('°C', 'The temperature now in the second place the request names.'),
  }),
  solve(tools, given) {
    const [first, second] = given.places.map((place) => conditionsNow(tools, locate(tools, place)).temperature) as [number, number];
    return { colder: (first < second ? given.places[0]! : given.places[1]!).name, first_place_c: first, second_place_c: second };
  },
  targets: [
    {
      kind: 'lookalike',
      tool: 'weather_current',
      recovery: 'use weather_current, not the deprecated weather_now that the listing also shows',
    },
    {
      kind: 'transient_failure',
      tool: 'weather_current',
      recovery: 'retry the call: the server did not run it, and the same call later succeeds',
    },
  ],
});
