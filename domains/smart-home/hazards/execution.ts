import type { Hook } from '../../../hazards/kind.js';
import { daysBetween } from '../../../lib/time.js';
import type { SmartHomeDb } from '../db.js';

// What smart-home's execution hazards need beyond their kinds: the energy plan's window per request.

/** The days one energy request may cover on the basic plan (Energy Insights, as utilities' free tiers). */
export const ENERGY_PLAN_DAYS = 7;

const PERIOD_DAYS: Record<string, number> = { today: 1, yesterday: 1, last_7_days: 7, last_30_days: 30 };

export const ENERGY_PLAN_REASON =
  `Energy history on this plan is served at most ${ENERGY_PLAN_DAYS} days per request. Ask for the period in parts of ` +
  `${ENERGY_PLAN_DAYS} days or fewer with start_date and end_date, and add them up.`;

/** How many days an energy request covers, from its arguments. */
export function requestedDays({ args }: Hook<SmartHomeDb>): number {
  if (typeof args['start_date'] === 'string' && typeof args['end_date'] === 'string') {
    return daysBetween(args['start_date'], args['end_date']) + 1;
  }
  return PERIOD_DAYS[typeof args['period'] === 'string' ? args['period'] : 'last_7_days'] ?? 0;
}
