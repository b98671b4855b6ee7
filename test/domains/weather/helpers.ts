import { readFileSync } from 'node:fs';
import { Pool } from 'undici';
import { weather } from '../../../domains/weather/index.js';
import type { Location, Place, Station, WeatherDatabase } from '../../../domains/weather/schema.js';
import { buildApp } from '../../../server/app.js';
import type { BaseDatabase } from '../../../server/data/base.js';
import { loadBases } from '../../../server/load.js';
import type { TestServer } from '../../helpers/server.js';

// A listening server with the weather domain (whether or not domains/index.ts registers it yet),
// and the fixture, for the weather tests.

/** The default session clock: 2024-05-15T15:00:00-05:00. */
export const DEFAULT_NOW = Date.parse('2024-05-15T20:00:00Z');

let cached: WeatherDatabase | undefined;

/** The embedded weather fixture, parsed once. */
export function weatherFixture(): WeatherDatabase {
  cached ??= JSON.parse(readFileSync(new URL('../../../fixtures/weather.json', import.meta.url), 'utf8')) as WeatherDatabase;
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

let bases: Promise<Map<string, BaseDatabase>> | undefined;

interface Teardown {
  teardown(fn: () => unknown): void;
}

export interface WeatherServer extends TestServer {
  /** Calls a weather tool in a new session whose clock starts at `start` (ISO 8601). */
  callAt<T = any>(start: string, tool: string, args?: unknown): Promise<{ status: number; body: T }>;
}

/** A listening server serving the weather domain, closed when the test ends. */
export async function startWeatherServer(t: Teardown): Promise<WeatherServer> {
  bases ??= loadBases([weather]);
  const app = await buildApp({
    domains: [weather],
    bases: await bases,
    sessions: { ttlMs: 3_600_000, maxSessions: 1000, defaultSeed: '0' },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const origin = typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : '';
  const pool = new Pool(origin, { connections: 4 });
  t.teardown(async () => {
    await pool.close();
    await app.close();
  });
  const request: TestServer['request'] = async (method, path, body, headers = {}) => {
    const hasBody = body !== undefined;
    const response = await pool.request({
      method,
      path,
      headers: { ...(hasBody ? { 'content-type': 'application/json' } : {}), ...headers },
      body: hasBody ? JSON.stringify(body) : null,
    });
    const text = await response.body.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      // not JSON (markdown): keep the text
    }
    return { status: response.statusCode, headers: response.headers, body: parsed as never, text };
  };
  const newSession: TestServer['newSession'] = async (options = {}) => {
    const reply = await request('POST', '/sessions', options);
    if (reply.status !== 201) throw new Error(`POST /sessions answered ${reply.status}: ${reply.text}`);
    return (reply.body as { id: string }).id;
  };
  const call: TestServer['call'] = (domain, tool, args = {}, session) =>
    request('POST', `${session ? `/s/${session}` : ''}/${domain}/tools/${tool}`, args);
  return {
    app,
    origin,
    request,
    call,
    journal: async (session = 'default') => (await request('GET', `/sessions/${session}/journal`)).body,
    newSession,
    state: async (session = 'default') => (await request('GET', `/sessions/${session}/state`)).body as Record<string, any>,
    callAt: async (start, tool, args = {}) => {
      const session = await newSession({ clock: { start, step_ms: 0 } });
      return call('weather', tool, args, session);
    },
  };
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
