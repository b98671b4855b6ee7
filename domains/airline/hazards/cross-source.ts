import type { ResultHook } from '../../../hazards/kind.js';
import { isObject } from '../../../lib/object.js';
import type { AirlineDb } from '../db.js';

// Airline's cross-source hazard: the airport's board lagging the airline.

type Obj = Record<string, unknown>;

/** A local ISO time with its UTC offset, `minutes` later, in the same offset. */
function later(local: string, minutes: number): string {
  const offset = /([+-])(\d{2}):(\d{2})$/.exec(local);
  if (!offset) return local;
  const offsetMs = (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3])) * 60_000;
  return new Date(Date.parse(local) + minutes * 60_000 + offsetMs).toISOString().slice(0, 19) + offset[0];
}

/** The airport's board lags the airline on one flight: it shows another status (and time) than get_flight_status. */
export function boardDisagrees({ result, sessionRandom: random }: ResultHook<AirlineDb>) {
  if (!isObject(result) || !Array.isArray(result['flights'])) return null;
  const rows = result['flights'] as Obj[];
  const open = rows.flatMap((row, i) => (['Scheduled', 'On Time', 'Delayed', 'Cancelled'].includes(String(row['status'])) ? [i] : []));
  if (open.length === 0) return null;
  const index = random.pick(open);
  const row = rows[index]!;
  const scheduled = String(row['scheduled']);
  let shown: Obj;
  if (row['status'] === 'Delayed' || row['status'] === 'Cancelled') shown = { status: 'On Time', estimated: scheduled };
  else if (random.bool(0.5)) shown = { status: 'Delayed', estimated: later(scheduled, 5 * random.int(6, 36)) };
  else shown = { status: 'Cancelled', estimated: null };
  const flights = rows.map((r, i) => (i === index ? { ...r, ...shown } : r));
  return { result: { ...result, flights }, field: `flights.${index}.status`, shown: shown['status'] };
}
