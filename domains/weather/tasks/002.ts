import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { alertFields, alertOf, alertsOf, pickFrom, usStates } from './common.js';
import { weatherTask } from './define.js';

// Three US states at once, some with alerts and some without: each by its name, which a rule of the day
// wants as its code. The clock is a summer afternoon when several states have alerts.

export default weatherTask({
  id: 'weather/002',
  title: 'Alerts in three states at once',
  categories: ['parallel'],
  clock: { start: '2024-07-24T15:00:00-05:00' },
  pick({ db, random, now }) {
    const states = usStates(db);
    const alerted = states.filter(([, places]) => alertsOf(places, now).length > 0).map(([state]) => state);
    const quiet = states.filter(([, places]) => alertsOf(places, now).length === 0).map(([state]) => state);
    // At least one state with alerts and one without; the third any other.
    const first = pickFrom(random, alerted, 'US state with an alert');
    const second = pickFrom(random, quiet, 'US state without alerts');
    const third = pickFrom(
      random,
      states.map(([state]) => state).filter((state) => state !== first && state !== second),
      'third US state',
    );
    return { states: random.shuffle([first, second, third]) };
  },
  request: (given) =>
    `Quick check before a road trip: are there any weather alerts right now or coming up in ${given.states[0]}, ${given.states[1]} or ${given.states[2]}? ` +
    `All three are US states.`,
  answer: z.strictObject({
    alerts: field.set(
      z.strictObject({
        state: field.text('The state the alert is in, by its name.'),
        location_id: field.id('The location_id of the place the alert is for.'),
        ...alertFields,
      }),
      'Every weather alert in effect or coming up in the three states.',
    ),
    states_without_alerts: field.set(field.text('A state, by its name.'), 'The states of the three that have no alert in effect or coming up.'),
  }),
  solve(tools, given) {
    const lists = given.states.map((state) => ({ state, alerts: tools.weather_alerts({ country: 'US', region: state }).alerts }));
    return {
      alerts: lists.flatMap(({ state, alerts }) => alerts.map((alert) => ({ state, location_id: alert.location_id, ...alertOf(alert) }))),
      states_without_alerts: lists.filter(({ alerts }) => alerts.length === 0).map(({ state }) => state),
    };
  },
  targets: [
    {
      kind: 'adhoc_rule',
      tool: 'weather_alerts',
      recovery: "send each state as its code (e.g. 'TX', as geocode_location gives it in region_code), as the tool's description now asks",
    },
  ],
});
