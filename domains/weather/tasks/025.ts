import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { Alert, alertOf, alertsOf, celsius, locate, type NamedPlace, named, pickFrom, placesOf, runAt, tomorrowOf, words } from './common.js';
import { weatherTask, weatherTurn } from './define.js';

// Tomorrow's high, where the forecast's documentation may not say that its first day is today, then the
// alerts up to and including that day (not the ones after it). The clock is a winter day when many places
// have alerts.

interface Given {
  place: NamedPlace;
}

export default weatherTask({
  id: 'weather/025',
  title: "Tomorrow's high, then the alerts for that day",
  categories: ['multi-mission'],
  clock: { start: '2024-02-02T15:00:00-05:00' },
  pick({ db, random, now }): Given {
    const places = placesOf(db).filter((place) => {
      const forecast = runAt(db, now, 'weather_forecast', { location_id: place.id, days: 2 });
      const [day1, day2] = forecast.days;
      const tomorrow = tomorrowOf(forecast);
      return Math.abs(day1!.temperature_max - day2!.temperature_max) >= 0.5 && alertsOf([place], now).some((alert) => alert.onset.slice(0, 10) <= tomorrow);
    });
    return { place: named(db, pickFrom(random, places, 'place with an alert by tomorrow')) };
  },
  request: (given) => `How hot will it get in ${words(given.place)} tomorrow?`,
  answer: z.strictObject({
    date: field.date("Tomorrow's date at the place (its local date), YYYY-MM-DD."),
    high_c: celsius("Tomorrow's forecast high."),
  }),
  solve(tools, given) {
    const forecast = tools.weather_forecast({ location_id: locate(tools, given.place), days: 2 });
    const date = tomorrowOf(forecast);
    return { date, high_c: forecast.days.find((d) => d.date === date)!.temperature_max };
  },
  follow_ups: [
    weatherTurn({
      request: () => 'Any weather alerts I should know about up to and including that day?',
      answer: z.strictObject({
        alerts: field.set(Alert, 'Every weather alert for the place in effect now or beginning by the end of tomorrow (local time); none that begins later.'),
      }),
      solve(tools, given: Given) {
        const location_id = locate(tools, given.place);
        const tomorrow = tomorrowOf(tools.weather_forecast({ location_id, days: 2 }));
        const { alerts } = tools.weather_alerts({ location_id });
        return { alerts: alerts.filter((alert) => alert.onset.slice(0, 10) <= tomorrow).map(alertOf) };
      },
    }),
  ],
  targets: [
    {
      kind: 'ambiguous_doc',
      tool: 'weather_forecast',
      recovery: 'pick the day by its date: tomorrow is the day after the local date of issued_at',
    },
  ],
});
