import { deepFreeze } from '../../../lib/freeze.js';
import { readFileSync } from 'node:fs';
import type { Location, Place, Station, WeatherDatabase } from '../../../domains/weather/schema.js';
import type { Reply, TestServer } from '../../helpers/server.js';

// The weather fixture and weather-only call helpers, for the weather tests (servers come from
// test/helpers/server.ts `startServer`).

/** The default session clock: 2024-05-15T15:00:00-05:00. */
export const DEFAULT_NOW = Date.parse('2024-05-15T20:00:00Z');

let cached: WeatherDatabase | undefined;

/** The embedded weather fixture, parsed once. */
export function weatherFixture(): WeatherDatabase {
  cached ??= deepFreeze(JSON.parse(readFileSync(new URL('../../../fixtures/weather.json', import.meta.url), 'utf8')) as WeatherDatabase);
  return cached;
}

export function place(id: string): Place {
  const location = weatherFixture().locations[id];
  if (!location?.climate) throw new Error(`no place ${id} in the fixture`);
  return location as Place;
}

export const places = (): Place[] => Object.values(weatherFixture().locations) as Place[];

export function stationsOf(locationId: string): Station[] {
  return Object.values(weatherFixture().stations).filter((s) => s.location_id === locationId);
}

export function findStation(test: (station: Station, location: Location) => boolean): Station {
  const db = weatherFixture();
  for (const station of Object.values(db.stations)) if (test(station, db.locations[station.location_id]!)) return station;
  throw new Error('no station in the fixture matches');
}

/** Calls a weather tool in a new session whose clock starts at `start` (ISO 8601). */
export async function callAt<T = any>(server: TestServer, start: string, tool: string, args: unknown = {}): Promise<Reply<T>> {
  const session = await server.newSession({ clock: { start, step_ms: 0 } });
  return server.call<T>('weather', tool, args, session);
}

/** Asserts that each argument set is refused with 400 naming the field. */
export async function expectInvalid(
  t: { equal(found: unknown, wanted: unknown, message: string): boolean; ok(value: unknown, message: string): boolean },
  server: TestServer,
  tool: string,
  cases: readonly { args: unknown; field: string }[],
): Promise<void> {
  for (const { args, field } of cases) {
    const reply = await server.call('weather', tool, args);
    t.equal(reply.status, 400, `${JSON.stringify(args)} → 400`);
    const fields = (reply.body?.errors ?? []).map((e: { field: string }) => e.field);
    t.ok(fields.includes(field), `${JSON.stringify(args)} names ${field} (got ${fields.join(', ')})`);
  }
}
