import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { Alert, alertOf, alertsOf, alertsSeenLate, locate, named, pickFrom, placesOf, words } from './common.js';
import { weatherTask } from './define.js';

// A place's alerts, from a feed that may serve the list as it stood hours ago. The clock is a winter day
// when many places have alerts.

export default weatherTask({
  id: 'weather/022',
  title: 'Warnings before an evening run',
  categories: ['single-step'],
  clock: { start: '2024-02-01T15:00:00-05:00' },
  pick({ db, random, now }) {
    // A place with an alert, whose feed read from a lagging copy would show an alert as it no longer is.
    const places = placesOf(db).filter((place) => alertsOf([place], now).length > 0 && alertsSeenLate(db, [place], now));
    return { place: named(db, pickFrom(random, places, 'place with an alert')) };
  },
  request: (given) => `I'm going for a long run in ${words(given.place)} later. Are there any weather warnings I should know about?`,
  answer: z.strictObject({ alerts: field.set(Alert, 'Every weather alert for the place, in effect or coming up.') }),
  solve(tools, given) {
    return { alerts: tools.weather_alerts({ location_id: locate(tools, given.place) }).alerts.map(alertOf) };
  },
  targets: [
    {
      kind: 'stale_data',
      tool: 'weather_alerts',
      recovery: 'an alert past its expiry, or still called upcoming after its onset, shows the list is out of date: ask again and relay the fresh list',
    },
  ],
});
