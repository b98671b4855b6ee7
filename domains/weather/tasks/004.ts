import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { localParts } from '../../../lib/time.js';
import { celsius, locate, type NamedPlace, named, pickFrom, placesOf, runAt, words } from './common.js';
import { weatherTask, weatherTurn } from './define.js';

// The warmest of the next 12 hours somewhere, then the same instant somewhere else: two calls of
// weather_hourly, the second after the hours parameter is renamed.

const HOURS = 12;

interface Given {
  first: NamedPlace;
  second: NamedPlace;
  hours: number;
}

export default weatherTask({
  id: 'weather/004',
  title: 'The warmest hour, then the same moment elsewhere',
  categories: ['multi-mission', 'multi-step'],
  pick({ db, random, now }): Given {
    const places = placesOf(db);
    // A place whose warmest hour is one hour, not a tie.
    const clear = places.filter((place) => {
      const temperatures = runAt(db, now, 'weather_hourly', { location_id: place.id, hours: HOURS }).hours.map((hour) => hour.temperature);
      return temperatures.filter((t) => t === Math.max(...temperatures)).length === 1;
    });
    const first = pickFrom(random, clear, 'place with one warmest hour');
    // Another place whose hours start at the same instants (its offset differs by whole hours).
    const minutes = (id: string) => localParts(db.locations.get(id)!.timezone, now.getTime()).offsetMin;
    const second = pickFrom(
      random,
      places.filter((place) => place.id !== first.id && (minutes(place.id) - minutes(first.id)) % 60 === 0),
      'second place',
    );
    return { first: named(db, first), second: named(db, second), hours: HOURS };
  },
  request: (given) => `When will it be warmest in ${words(given.first)} over the next ${given.hours} hours, and how warm?`,
  answer: z.strictObject({
    time: field.time('The start of the warmest hour: the local time at the place, HH:MM (24-hour).'),
    temperature_c: celsius('The temperature of that hour.'),
  }),
  solve(tools, given) {
    const hours = tools.weather_hourly({ location_id: locate(tools, given.first), hours: given.hours }).hours;
    const top = hours.reduce((best, hour) => (hour.temperature > best.temperature ? hour : best));
    return { time: top.time.slice(11, 16), temperature_c: top.temperature };
  },
  follow_ups: [
    weatherTurn({
      request: (given: Given) => `And what temperature will ${words(given.second)} have at that same moment?`,
      answer: z.strictObject({
        local_time: field.time('That same moment in the local time of the second place, HH:MM (24-hour).'),
        temperature_c: celsius('The temperature forecast there for that hour.'),
      }),
      solve(tools, given: Given) {
        const first = tools.weather_hourly({ location_id: locate(tools, given.first), hours: given.hours }).hours;
        const top = first.reduce((best, hour) => (hour.temperature > best.temperature ? hour : best));
        const second = tools.weather_hourly({ location_id: locate(tools, given.second), hours: given.hours }).hours;
        const same = second.find((hour) => Date.parse(hour.time) === Date.parse(top.time))!;
        return { local_time: same.time.slice(11, 16), temperature_c: same.temperature };
      },
    }),
  ],
  targets: [
    {
      kind: 'spec_drift',
      tool: 'weather_hourly',
      recovery: 're-read the listing after the 400 and send the hours under their new name (horizon_hours)',
    },
  ],
});
