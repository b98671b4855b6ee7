import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { AQI_CATEGORIES } from '../air.js';
import { NoInstance } from '../../task.js';
import { airIndexes, locate, type NamedPlace, named, pickSome, placesOf, words } from './common.js';
import { weatherTask, weatherTurn } from './define.js';

// The air in one place, then in another: each answer may carry, before the index now, a 24-hour mean index
// under the same name.

interface Given {
  first: NamedPlace;
  second: NamedPlace;
}

const aqi = field.count('The US EPA air quality index now (for the current hour).');
const category = field.choice(AQI_CATEGORIES, "The index's category, as the tool gives it.");

export default weatherTask({
  id: 'weather/021',
  title: 'Air quality in two cities',
  categories: ['multi-mission'],
  pick({ db, random, now }): Given {
    const places = placesOf(db)
      .map((place) => ({ place, ...airIndexes(db, place.id, now) }))
      .filter(({ aqi, mean }) => aqi !== mean);
    for (let tries = 0; tries < 50; tries++) {
      const [first, second] = pickSome(random, places, 2, 'places');
      if (first!.aqi !== second!.aqi) return { first: named(db, first!.place), second: named(db, second!.place) };
    }
    throw new NoInstance('weather/021: no two places whose air differs');
  },
  request: (given) => `How is the air in ${words(given.first)} right now?`,
  answer: z.strictObject({ aqi, category }),
  solve(tools, given) {
    const air = tools.air_quality({ location_id: locate(tools, given.first) });
    return { aqi: air.aqi, category: air.category };
  },
  follow_ups: [
    weatherTurn({
      request: (given: Given) => `Is it any better in ${words(given.second)} at the moment?`,
      answer: z.strictObject({
        aqi,
        category,
        better: field.flag('Whether the air there is better (a lower index) than in the first place.'),
      }),
      solve(tools, given: Given) {
        const first = tools.air_quality({ location_id: locate(tools, given.first) });
        const second = tools.air_quality({ location_id: locate(tools, given.second) });
        return { aqi: second.aqi, category: second.category, better: second.aqi < first.aqi };
      },
    }),
  ],
  targets: [
    {
      kind: 'redundant',
      tool: 'air_quality',
      recovery: 'read the documented aqi (the index of the hour in valid_at), not the 24-hour summary placed before it',
    },
  ],
});
