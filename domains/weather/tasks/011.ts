import { z } from 'zod';
import { conditionField, conditionsNow, locate, named, nowIn, pickNow, words } from './common.js';
import { weatherTask } from './define.js';

// Now, where the model answers (common.ts: pickNow): the model's nowcast, through failures of the server and the network.

export default weatherTask({
  id: 'weather/011',
  title: 'Current conditions where no station qualifies',
  categories: ['multi-step'],
  clock: { start: '2024-05-14T09:00:00-05:00' },
  pick({ db, random, now }) {
    const [place] = pickNow(db, random, now);
    return { place: named(db, place!) };
  },
  request: (given) => `What's the weather like in ${words(given.place)} right now?`,
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
      kind: 'transient_failure',
      tool: 'weather_current',
      recovery: 'retry the call: the server did not run it, and the same call later succeeds',
    },
    {
      kind: 'latency',
      tool: 'weather_current',
      recovery: 'retry the call after the gateway timeout: nothing was changed and the next attempt answers in time',
    },
    {
      kind: 'transport_fault',
      tool: 'weather_current',
      recovery: 'retry the call after the reset, empty reply or broken body',
    },
  ],
});
