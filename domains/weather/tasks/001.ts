import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { alertFields, alertOf, alertsOf, alertsSeenLate, pickFrom, usStates } from './common.js';
import { weatherTask } from './define.js';

// A whole US state's alerts: the state by the name the person uses, where a rule of the day wants its code,
// and a feed that may serve the list as it stood hours ago. The clock is a summer afternoon when several
// states have alerts.

export default weatherTask({
  id: 'weather/001',
  title: 'Alerts in a US state',
  categories: ['single-step'],
  clock: { start: '2024-07-23T17:00:00-05:00' },
  pick({ db, random, now }) {
    // A state with an alert, whose feed read from a lagging copy would show an alert as it no longer is.
    const candidates = usStates(db).filter(([, places]) => alertsOf(places, now).length > 0 && alertsSeenLate(db, places, now));
    const [state] = pickFrom(random, candidates, 'US state with an alert');
    return { state };
  },
  request: (given) =>
    `I'm driving around ${given.state} (US) over the next couple of days. Are there any weather alerts anywhere in the state, in effect now or coming up?`,
  answer: z.strictObject({
    alerts: field.set(
      z.strictObject({ location_id: field.id('The location_id of the place the alert is for.'), ...alertFields }),
      'Every weather alert in effect or coming up anywhere in the state.',
    ),
  }),
  solve(tools, given) {
    const { alerts } = tools.weather_alerts({ country: 'US', region: given.state });
    return { alerts: alerts.map((alert) => ({ location_id: alert.location_id, ...alertOf(alert) })) };
  },
  targets: [
    {
      kind: 'adhoc_rule',
      tool: 'weather_alerts',
      recovery: "send the state as its code (e.g. 'WA', as geocode_location gives it in region_code), as the tool's description now asks",
    },
    {
      kind: 'stale_data',
      tool: 'weather_alerts',
      recovery: 'an alert past its expiry, or still called upcoming after its onset, shows the list is out of date: ask again and relay the fresh list',
    },
  ],
});
