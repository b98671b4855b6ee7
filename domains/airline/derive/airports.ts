import { AIRPORT_BY_CODE } from '../../../fixtures/generator/airline-catalog.js';
import type { Airport, Flight } from '../schema.js';

// Airports: the ones the flights serve.

/** Every airport the flights serve, from our catalog; a code we do not know is its own city. */
export function deriveAirports(flights: Record<string, Flight>): Record<string, Airport> {
  const codes = new Set<string>();
  for (const flight of Object.values(flights)) codes.add(flight.origin).add(flight.destination);
  const airports: Record<string, Airport> = {};
  for (const code of [...codes].sort()) {
    if (!/^[A-Z]{3}$/.test(code)) continue;
    const known = AIRPORT_BY_CODE.get(code);
    airports[code] = known
      ? { iata: code, city: known.city, name: known.name, timezone: known.timezone }
      : { iata: code, city: code, name: `${code} Airport`, timezone: 'America/New_York' };
  }
  return airports;
}
