import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { conditionsNow, locate, modelTemperature, named, observedTemperature, pickFrom, stationFor, stationPlaces, words } from './common.js';
import { weatherTask } from './define.js';

// Now, where a station of the network qualifies: its measurement is what the policy quotes. The model's
// nowcast agrees with it within a degree, until it drifts 3 to 6 degrees off.

/** How far the figure may be from the station's: the degree or two by which sources legitimately differ. */
const TOLERANCE = 1.5;

export default weatherTask({
  id: 'weather/017',
  title: 'The measured temperature',
  categories: ['multi-step'],
  pick({ db, random, now }) {
    const places = stationPlaces(db, now).filter(
      (place) => Math.abs(modelTemperature(db, place.id, now) - observedTemperature(db, stationFor(db, place.id, now)!, now)) <= 1,
    );
    return { place: named(db, pickFrom(random, places, 'place with a qualifying station')) };
  },
  request: (given) => `How warm is it in ${words(given.place)} right now? I'd like the real figure.`,
  answer: z.strictObject({
    temperature_c: field.number('The temperature there now, in °C, to one decimal.', TOLERANCE),
  }),
  solve(tools, given) {
    return { temperature_c: conditionsNow(tools, locate(tools, given.place)).temperature };
  },
  targets: [
    {
      kind: 'conflict',
      tool: 'weather_current',
      recovery: "report the nearest qualifying station of the network (list_weather_stations, get_station_observation), not the model's estimate",
    },
  ],
});
