import { z } from 'zod';
import { conditionsNow, locate, lookalikeTemperature, modelTemperature, named, nowIn, pickNow, words } from './common.js';
import { weatherTask } from './define.js';

// Now, where the model answers (no station qualifies): its nowcast's nowcast, from the maintained tool and not from its deprecated
// look-alike, which serves a feed hours behind.

export default weatherTask({
  id: 'weather/007',
  title: 'Current conditions from the maintained tool',
  categories: ['multi-step'],
  pick({ db, random, now }) {
    // Where the look-alike's lagging feed gives another figure.
    const [place] = pickNow(db, random, now, { where: (p) => Math.abs(lookalikeTemperature(db, p.id, now) - modelTemperature(db, p.id, now)) >= 0.5 });
    return { place: named(db, place!) };
  },
  request: (given) => `How warm is it in ${words(given.place)} right now?`,
  answer: z.strictObject({
    temperature_c: nowIn('°C', 'The temperature there now.'),
  }),
  solve(tools, given) {
    const now = conditionsNow(tools, locate(tools, given.place));
    return { temperature_c: now.temperature };
  },
  targets: [
    {
      kind: 'lookalike',
      tool: 'weather_current',
      recovery: 'use weather_current, not the deprecated weather_now that the listing also shows',
    },
  ],
});
