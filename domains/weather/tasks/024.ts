import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { addDays } from '../../../lib/time.js';
import { celsius, conditionField, conditionsNow, locate, type NamedPlace, named, nowIn, pickNow, words } from './common.js';
import { weatherTask, weatherTurn } from './define.js';

// Now where the model answers (common.ts: pickNow): its nowcast, over a connection that may fail; then tomorrow
// from a forecast that may time out.

interface Given {
  place: NamedPlace;
}

export default weatherTask({
  id: 'weather/024',
  title: 'Now, then tomorrow',
  categories: ['multi-mission'],
  clock: { start: '2024-05-16T08:00:00-05:00' },
  pick({ db, random, now }): Given {
    const [place] = pickNow(db, random, now);
    return { place: named(db, place!) };
  },
  request: (given) => `What's the weather doing in ${words(given.place)} right now?`,
  answer: z.strictObject({
    temperature_c: nowIn('°C', 'The temperature there now.'),
    condition: conditionField,
  }),
  solve(tools, given) {
    const now = conditionsNow(tools, locate(tools, given.place));
    return { temperature_c: now.temperature, condition: now.condition };
  },
  follow_ups: [
    weatherTurn({
      request: () => 'And what about tomorrow there?',
      answer: z.strictObject({
        date: field.date("Tomorrow's date at the place (its local date), YYYY-MM-DD."),
        high_c: celsius("Tomorrow's forecast high."),
        low_c: celsius("Tomorrow's forecast low."),
        chance_pct: field.number('The chance of precipitation tomorrow, in percent, as the forecast gives it.', 0),
      }),
      solve(tools, given: Given) {
        const forecast = tools.weather_forecast({ location_id: locate(tools, given.place), days: 2 });
        const date = addDays(forecast.issued_at.slice(0, 10), 1);
        const day = forecast.days.find((d) => d.date === date)!;
        return { date, high_c: day.temperature_max, low_c: day.temperature_min, chance_pct: day.precipitation_probability_pct };
      },
    }),
  ],
  targets: [
    {
      kind: 'transport_fault',
      tool: 'weather_current',
      recovery: 'retry the call after the reset, empty reply or broken body',
    },
    {
      kind: 'latency',
      tool: 'weather_forecast',
      recovery: 'retry the call after the gateway timeout: nothing was changed and the next attempt answers in time',
    },
  ],
});
