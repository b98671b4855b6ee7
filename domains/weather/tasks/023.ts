import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { Alert, alertOf, alertsOf, alertsSeenLate, celsius, locate, named, pickFrom, placesOf, runAt, tomorrowOf, words } from './common.js';
import { weatherTask } from './define.js';

// Tomorrow's forecast and the alerts for a hike: the forecast's documentation may not say that its first
// day is today, and the alert feed may serve the list as it stood hours ago. The clock is a winter day when
// many places have alerts.

export default weatherTask({
  id: 'weather/023',
  title: 'A hike tomorrow',
  categories: ['multi-step'],
  clock: { start: '2024-02-01T15:00:00-05:00' },
  pick({ db, random, now }) {
    const places = placesOf(db).filter((place) => {
      const [day1, day2] = runAt(db, now, 'weather_forecast', { location_id: place.id, days: 2 }).days;
      return Math.abs(day1!.temperature_max - day2!.temperature_max) >= 0.5 && alertsOf([place], now).length > 0 && alertsSeenLate(db, [place], now);
    });
    return { place: named(db, pickFrom(random, places, 'place with an alert')) };
  },
  request: (given) => `I'm planning a hike near ${words(given.place)} tomorrow. What's the forecast for the day, and are there any weather alerts?`,
  answer: z.strictObject({
    date: field.date("Tomorrow's date at the place (its local date), YYYY-MM-DD."),
    high_c: celsius("Tomorrow's forecast high."),
    low_c: celsius("Tomorrow's forecast low."),
    chance_pct: field.number('The chance of precipitation tomorrow, in percent, as the forecast gives it.', 0),
    alerts: field.set(Alert, 'Every weather alert for the place, in effect or coming up.'),
  }),
  solve(tools, given) {
    const location_id = locate(tools, given.place);
    const forecast = tools.weather_forecast({ location_id, days: 2 });
    const date = tomorrowOf(forecast);
    const day = forecast.days.find((d) => d.date === date)!;
    const { alerts } = tools.weather_alerts({ location_id });
    return {
      date,
      high_c: day.temperature_max,
      low_c: day.temperature_min,
      chance_pct: day.precipitation_probability_pct,
      alerts: alerts.map(alertOf),
    };
  },
  targets: [
    {
      kind: 'stale_data',
      tool: 'weather_alerts',
      recovery: 'an alert still called upcoming after its onset, or past its expiry, shows the list is out of date: ask again and relay the fresh list',
    },
    {
      kind: 'ambiguous_doc',
      tool: 'weather_forecast',
      recovery: 'pick the day by its date: tomorrow is the day after the local date of issued_at',
    },
  ],
});
