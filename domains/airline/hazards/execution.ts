import { AIRLINE_NOW_EST } from '../schema.js';

// What airline's execution hazards need beyond their kinds: the one-stop search horizon.

/** The ISO date `days` after an ISO date. */
const addDays = (date: string, days: number) => {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + days);
  return day.toISOString().slice(0, 10);
};

const TODAY = AIRLINE_NOW_EST.slice(0, 10);

/** The last departure date one-stop search covers. */
export const ONESTOP_HORIZON = addDays(TODAY, 7);
export const ONESTOP_REASON =
  `One-stop search is limited to departures within 7 days of today (${TODAY}, so up to ${ONESTOP_HORIZON}). For a later date, ` +
  'search each leg with search_direct_flight: from the origin to a connecting airport, then from that airport to the destination.';
