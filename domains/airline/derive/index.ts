import type { AirlineDatabase } from '../schema.js';
import { deriveAirports } from './airports.js';
import { deriveBags } from './bags.js';
import { deriveCheckIns } from './check-ins.js';
import { deriveSeatMaps } from './seats.js';

// Fills the tables our extra tools need (airports, seat maps, check-ins, bags) from a file's own
// flights and reservations, so a tau2-bench db.json works as well as our generated fixture.
// Every record is decided by (seed, its key): the same file always completes the same way.

/** Seed of the derivations for files that come without our extra tables. */
export const DERIVATION_SEED = 'wildtools-airline';

const isEmpty = (table: Record<string, unknown> | undefined): boolean => !table || Object.keys(table).length === 0;

/**
 * A complete copy of a database: missing airports added; seat maps, check-ins and bags derived
 * when their table is empty (a file that has one of them is taken to hold all it wants; a flight
 * date without a seat map has the standard layout with nobody seated). Existing records are kept;
 * the input is not changed.
 */
export function completeAirline(file: AirlineDatabase, seed: string = DERIVATION_SEED): AirlineDatabase {
  const db = structuredClone(file);
  const airports = { ...db.airports };
  for (const [code, airport] of Object.entries(deriveAirports(db.flights))) airports[code] ??= airport;
  const seat_maps = isEmpty(db.seat_maps) ? deriveSeatMaps(db, seed) : db.seat_maps;
  const check_ins = isEmpty(db.check_ins) ? deriveCheckIns(db, seat_maps, seed) : db.check_ins;
  const bags = isEmpty(db.bags) ? deriveBags(db, check_ins, seed) : db.bags;
  return { flights: db.flights, users: db.users, reservations: db.reservations, airports, seat_maps, check_ins, bags };
}
