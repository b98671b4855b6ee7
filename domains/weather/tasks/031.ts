import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { addDays } from '../../../lib/time.js';
import {
  celsius,
  conditionsNow,
  locate,
  modelTemperature,
  type NamedPlace,
  named,
  observedTemperature,
  pickFrom,
  stationFor,
  stationPlaces,
  words,
} from './common.js';
import { weatherTask, weatherTurn } from './define.js';

// Now where a station of the network qualifies (its measurement is what the policy quotes, and the model
// drifts off it), then tomorrow's range from a forecast that may fail on the way.

interface Given {
  place: NamedPlace;
}

export default weatherTask({
  id: 'weather/031',
  title: 'Now measured, then tomorrow',
  categories: ['multi-mission'],
  pick({ db, random, now }): Given {
    const places = stationPlaces(db, now).filter(
      (place) => Math.abs(modelTemperature(db, place.id, now) - observedTemperature(db, stationFor(db, place.id, now)!, now)) <= 1,
    );
    return { place: named(db, pickFrom(random, places, 'place with a qualifying station')) };
  },
  request: (given) => `How warm is it in ${words(given.place)} right now?`,
  answer: z.strictObject({
    temperature_c: field.number('The temperature there now, in °C, to one decimal.', 1.5),
  }),
  solve(tools, given) {
    return { temperature_c: conditionsNow(tools, locate(tools, given.place)).temperature };
  },
  follow_ups: [
    weatherTurn({
      request: () => 'And how warm will it get there tomorrow, and how cold?',
      answer: z.strictObject({
        date: field.date("Tomorrow's date at the place (its local date), YYYY-MM-DD."),
        high_c: celsius("Tomorrow's forecast high."),
        low_c: celsius("Tomorrow's forecast low."),
      }),
      solve(tools, given: Given) {
        const forecast = tools.weather_forecast({ location_id: locate(tools, given.place), days: 2 });
        const date = addDays(forecast.issued_at.slice(0, 10), 1);
        const day = forecast.days.find((d) => d.date === date)!;
        return { date, high_c: day.temperature_max, low_c: day.temperature_min };
      },
    }),
  ],
  targets: [
    {
      kind: 'conflict',
      tool: 'weather_current',
      recovery: "report the nearest qualifying station of the network, not the model's estimate",
    },
    {
      kind: 'transient_failure',
      tool: 'weather_forecast',
      recovery: 'retry the call: the server did not run it, and the same call later succeeds',
    },
  ],
});
