import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { AQI_CATEGORIES } from '../air.js';
import { airIndexes, locate, named, pickFrom, placesOf, words } from './common.js';
import { weatherTask } from './define.js';

// The air quality index now, where an answer may carry, before it, a 24-hour mean index under the same name.

export default weatherTask({
  id: 'weather/020',
  title: 'Air quality now',
  categories: ['single-step'],
  pick({ db, random, now }) {
    // A place where the index now is not the day's mean: reading the wrong one shows.
    const places = placesOf(db).filter((place) => {
      const { aqi, mean } = airIndexes(db, place.id, now);
      return aqi !== mean;
    });
    return { place: named(db, pickFrom(random, places, 'place')) };
  },
  request: (given) => `What's the air quality in ${words(given.place)} right now? Should I be careful going out?`,
  answer: z.strictObject({
    aqi: field.count('The US EPA air quality index now (for the current hour).'),
    category: field.choice(AQI_CATEGORIES, "The index's category, as the tool gives it."),
  }),
  solve(tools, given) {
    const air = tools.air_quality({ location_id: locate(tools, given.place) });
    return { aqi: air.aqi, category: air.category };
  },
  targets: [
    {
      kind: 'redundant',
      tool: 'air_quality',
      recovery: 'read the documented aqi (the index of the hour in valid_at), not the 24-hour summary placed before it',
    },
  ],
});
