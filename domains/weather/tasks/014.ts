import { z } from 'zod';
import { conditionField, conditionsNow, locate, named, nowIn, pickNow, words } from './common.js';
import { weatherTask } from './define.js';

// Now, where the model answers (common.ts: pickNow), while the model's nowcast is down: the current hour of the hourly
// forecast is the same model's estimate (the place's hours start on the nowcast's step).

export default weatherTask({
  id: 'weather/014',
  title: 'Now in Oslo while the nowcast is down',
  categories: ['multi-step'],
  pick({ db, random, now }) {
    const [place] = pickNow(db, random, now);
    return { place: named(db, place!) };
  },
  request: (given) => `What's it like outside in ${words(given.place)} at the moment?`,
  answer: z.strictObject({
    temperature_c: nowIn('°C', 'The temperature there now.'),
    condition: conditionField,
  }),
  solve(tools, given) {
    const now = conditionsNow(tools, locate(tools, given.place));
    return { temperature_c: now.temperature, condition: now.condition };
  },
  targets: [
    {
      kind: 'outage',
      tool: 'weather_current',
      recovery: "no station qualifies there: use the current hour of weather_hourly, the same model's estimate, and say so",
      via: ['weather_hourly'],
    },
  ],
});
