import t, { type Test } from 'tap';
import { request } from 'undici';
import { weather } from '../../domains/weather/index.js';
import { feelsLike } from '../../domains/weather/model.js';
import { AUTHORITATIVE_AGE_MIN, AUTHORITATIVE_KM, weatherHazards } from '../../domains/weather/hazards/index.js';
import type { JournalEntry, Obj } from '../helpers/hazards.js';
import { startServer, type TestServer } from '../helpers/server.js';

// The weather domain's scenarios, one subtest each: off, nothing happens; on, the hazard fires on
// its tool (and journals its kind), and the scenario's recovery path gets the canonical answer.

/** Every session runs on the same still clock: 2024-05-15T15:00:00-05:00. */
const NOW = '2024-05-15T20:00:00Z';
const PLACE = 'portland-or-us';
const HISTORY = { location_id: PLACE, start_date: '2024-05-01', end_date: '2024-05-12' };
const FORECAST = { location_id: PLACE, days: 3 };
const CURRENT = { location_id: PLACE };

interface Client {
  server: TestServer;
  session: string;
  call(tool: string, args?: unknown): Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
  /** The hazard events of the session's calls, as 'kind tool'. */
  events(): Promise<string[]>;
  /** The session's weather tools as the native listing shows them. */
  listing(): Promise<{ name: string; description: string; input_schema: { properties: Record<string, { description?: string; default?: unknown }> } }[]>;
}

let sessions = 0;
async function open(t: Test, env?: NodeJS.ProcessEnv): Promise<Client> {
  const server = await startServer(t, env ? { hazardEnv: { HAZARD_SEED: '1', ...env } } : {});
  const session = await server.newSession({ id: `w${++sessions}`, clock: { start: NOW, step_ms: 0 } });
  return {
    server,
    session,
    call: (tool, args = {}) => server.call('weather', tool, args, session),
    events: async () => (await server.journal<JournalEntry>(session)).flatMap((e) => e.hazards.map((h) => `${h.kind} ${h.tool}`)),
    listing: async () => (await server.request('GET', `/s/${session}/weather/tools?format=native`)).body.tools,
  };
}

/** A server without hazards and one with `env`, each with a session on the same clock. */
const pair = async (t: Test, env: NodeJS.ProcessEnv) => ({ off: await open(t), on: await open(t, env) });

/** Off, `tool` answers `args` canonically and journals nothing; returns that answer. */
async function canonical(t: Test, off: Client, tool: string, args: unknown): Promise<Obj> {
  const reply = await off.call(tool, args);
  t.equal(reply.status, 200, `off: ${tool} answers`);
  t.same(await off.events(), [], 'off: no hazard event');
  return reply.body;
}

const only = (t: Test, events: string[], expected: string) => t.same([...new Set(events)], [expected], `only ${expected} is journaled`);

/** Retries a call until it answers 200 (at most `tries` calls); returns the answer and the statuses seen. */
async function retry(client: Client, tool: string, args: unknown, tries = 6) {
  const statuses: number[] = [];
  for (let i = 0; i < tries; i++) {
    const reply = await client.call(tool, args);
    statuses.push(reply.status);
    if (reply.status === 200) return { reply, statuses };
  }
  return { reply: undefined, statuses };
}

t.test('every scenario names a weather tool, and no tool has two of a kind', async (t) => {
  const tools = new Set<string>(weather.tools.map((tool) => tool.name));
  t.same(
    weatherHazards.filter((s) => !tools.has(s.tool)).map((s) => `${s.kind} ${s.tool}`),
    [],
    'scenarios on a tool the domain does not list',
  );
  const keys = weatherHazards.map((s) => `${s.kind} ${s.tool}`);
  t.equal(new Set(keys).size, keys.length);
  for (const s of weatherHazards) t.ok(s.naive, `${s.kind} ${s.tool} says what a literal client ends with`);
});

/** The nearest station of the network the policy calls authoritative, in a listing. */
const qualifying = (listing: Obj): any =>
  (listing['stations'] as Obj[]).find(
    (s) =>
      s['provider'] === 'network' &&
      s['distance_km'] <= AUTHORITATIVE_KM &&
      s['minutes_since_report'] !== null &&
      s['minutes_since_report'] <= AUTHORITATIVE_AGE_MIN,
  );

// ---- specification -------------------------------------------------------------------------

t.test('adhoc_rule weather_alerts: regions by their code', async (t) => {
  const { off, on } = await pair(t, { HAZARD__ADHOC_RULE__WEATHER_ALERTS: 'on' });
  const byName = { country: 'US', region: 'Washington' };
  const expected = await canonical(t, off, 'weather_alerts', byName);
  t.equal(expected.scope, 'Washington, United States (1 place)', 'off: the documented name is accepted');
  t.notMatch((await off.listing()).find((x) => x.name === 'weather_alerts')!.description, /region_code/, 'off: no rule in the description');

  const refused = await on.call('weather_alerts', byName);
  t.equal(refused.status, 422, "on: the state's name breaks the rule");
  t.match(refused.body, { code: 'invalid_format', detail: 'region: invalid format', field: 'region' });
  const listed = (await on.listing()).find((x) => x.name === 'weather_alerts')!;
  t.match(listed.description, /Regions are sent as their code, as geocode_location gives it in region_code/, 'the rule is in the description');
  t.match(listed.input_schema.properties['region']!.description, /region_code/);
  const code = (await on.call('geocode_location', { query: 'Seattle' })).body.matches[0].region_code;
  t.equal(code, 'WA', 'the geocoder gives the code the rule asks for');
  const reformatted = await on.call('weather_alerts', { country: 'US', region: code });
  t.equal(reformatted.status, 200, 'recovery: the code is accepted');
  t.same(reformatted.body, expected, 'with the same answer');
  t.equal((await on.call('weather_alerts', { location_id: 'seattle-us' })).status, 200, 'a call for one place is not concerned');
  only(t, await on.events(), 'adhoc_rule weather_alerts');
});

t.test('spec_drift weather_hourly: hours becomes horizon_hours from the second call', async (t) => {
  const { off, on } = await pair(t, { HAZARD__SPEC_DRIFT__WEATHER_HOURLY: 'on' });
  const expected = await canonical(t, off, 'weather_hourly', { location_id: PLACE, hours: 6 });
  t.same((await on.call('weather_hourly', { location_id: PLACE, hours: 6 })).body, expected, 'call 1: the old contract');
  t.same(await on.events(), [], 'call 1: no event');
  const refused = await on.call('weather_hourly', { location_id: PLACE, hours: 6 });
  t.equal(refused.status, 400, 'call 2: the old name is refused');
  t.match(refused.body.detail, /unknown field 'hours'/);
  const listed = (await on.listing()).find((x) => x.name === 'weather_hourly')!;
  t.ok('horizon_hours' in listed.input_schema.properties && !('hours' in listed.input_schema.properties), 'the listing shows the new name');
  const renamed = await on.call('weather_hourly', { location_id: PLACE, horizon_hours: 6 });
  t.equal(renamed.status, 200, 'recovery: re-read the listing, call with horizon_hours');
  t.same(renamed.body, expected, 'the same answer');
  only(t, await on.events(), 'spec_drift weather_hourly');
});

t.test('ambiguous_doc weather_forecast: which day comes first goes from the documentation', async (t) => {
  const { off, on } = await pair(t, { HAZARD__AMBIGUOUS_DOC__WEATHER_FORECAST: 'on' });
  const expected = await canonical(t, off, 'weather_forecast', FORECAST);
  const before = (await off.listing()).find((x) => x.name === 'weather_forecast')!;
  t.match(`${before.description} ${before.input_schema.properties['days']!.description}`, /day 1 being today.*starting today/s, 'off: day 1 is today');
  const after = (await on.listing()).find((x) => x.name === 'weather_forecast')!;
  const days = after.input_schema.properties['days']!;
  t.notMatch(`${after.description} ${days.description}`, /today/, `on: nothing says where the days start (${days.description})`);
  t.equal(days.default, before.input_schema.properties['days']!.default, 'the default its text still states is kept');
  const reply = await on.call('weather_forecast', FORECAST);
  t.equal(reply.status, 200, 'the tool is unchanged');
  t.same(reply.body, expected, 'and answers as ever');
  t.equal(reply.body.days[0].date, reply.body.issued_at.slice(0, 10), "recovery: the days' dates say the first one is today");
  only(t, await on.events(), 'ambiguous_doc weather_forecast');
});

t.test('lookalike weather_now: a deprecated, stale twin of weather_current', async (t) => {
  const { off, on } = await pair(t, { HAZARD__LOOKALIKE__WEATHER_CURRENT: 'on' });
  const expected = await canonical(t, off, 'weather_current', { location_id: PLACE });
  t.notOk(
    (await off.listing()).some((x) => x.name === 'weather_now'),
    'off: not listed',
  );
  t.equal((await off.call('weather_now', { location_id: PLACE })).status, 404, 'off: no such tool');
  t.ok(
    (await on.listing()).some((x) => x.name === 'weather_now'),
    'on: listed beside weather_current',
  );
  const decoy = await on.call('weather_now', { location_id: PLACE });
  t.equal(decoy.status, 200, 'the decoy answers');
  t.match(decoy.body, { deprecated: true, deprecation: /Use weather_current/ });
  t.ok(Date.parse(decoy.body.updated_at) < Date.parse(expected.valid_at) - 3_600_000, `stale: ${decoy.body.updated_at} vs ${expected.valid_at}`);
  t.same(await on.events(), ['lookalike weather_now'], 'falling for it is journaled');
  t.match((await on.server.journal<JournalEntry>(on.session))[0]!.hazards[0], { decoy: 'weather_now', canonical: 'weather_current' });
  t.same((await on.call('weather_current', { location_id: PLACE })).body, expected, 'recovery: the canonical tool answers as ever');
});

// ---- invocation ----------------------------------------------------------------------------

t.test('invocation_error historical_weather: api_version required', async (t) => {
  const { off, on } = await pair(t, { HAZARD__INVOCATION_ERROR__HISTORICAL_WEATHER: 'on' });
  const expected = await canonical(t, off, 'historical_weather', HISTORY);
  const refused = await on.call('historical_weather', HISTORY);
  t.equal(refused.status, 400);
  t.match(refused.body, { code: 'api_version_required', detail: /"api_version": "2024-05-01"/ });
  const reply = await on.call('historical_weather', { ...HISTORY, api_version: '2024-05-01' });
  t.equal(reply.status, 200, 'recovery: repeat with the named argument');
  t.same(reply.body, expected);
  only(t, await on.events(), 'invocation_error historical_weather');
});

// ---- execution -----------------------------------------------------------------------------

for (const [kind, tool, args] of [
  ['transient_failure', 'weather_current', CURRENT],
  ['transient_failure', 'weather_forecast', FORECAST],
  ['latency', 'weather_current', CURRENT],
  ['latency', 'weather_forecast', FORECAST],
] as const) {
  t.test(`${kind} ${tool}: a retry gets the answer`, async (t) => {
    const { off, on } = await pair(t, { [`HAZARD__${kind.toUpperCase()}__${tool.toUpperCase()}`]: 'on' });
    const expected = await canonical(t, off, tool, args);
    const { reply, statuses } = await retry(on, tool, args);
    t.ok(reply, `recovery: the retries get through (${statuses.join(', ')})`);
    t.same(reply?.body, expected, 'with the canonical answer');
    if (kind === 'transient_failure') t.ok(statuses[0] === 429 || statuses[0]! >= 500, 'p=1: the first call fails');
    t.ok((await on.events()).length > 0, 'journaled');
    only(t, await on.events(), `${kind} ${tool}`);
  });
}

for (const [tool, args] of [
  ['weather_current', CURRENT],
  ['weather_forecast', FORECAST],
] as const) {
  t.test(`transport_fault ${tool}: the connection fails, a retry gets the answer`, async (t) => {
    const { off, on } = await pair(t, { [`HAZARD__TRANSPORT_FAULT__${tool.toUpperCase()}`]: 'on' });
    const expected = await canonical(t, off, tool, args);
    const seen: string[] = [];
    let answer: unknown;
    for (let i = 0; i < 4 && answer === undefined; i++) {
      try {
        const response = await request(`${on.server.origin}/s/${on.session}/weather/tools/${tool}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(args),
        });
        const text = await response.body.text();
        try {
          answer = JSON.parse(text);
          seen.push('answer');
        } catch {
          seen.push('unparsable');
        }
      } catch {
        seen.push('failed');
      }
    }
    t.not(seen[0], 'answer', `p=1: the first call fails (${seen.join(', ')})`);
    t.same(answer, expected, 'recovery: a retry gets the canonical answer');
    only(t, await on.events(), `transport_fault ${tool}`);
  });
}

t.test('feature_limit weather_forecast: beyond 3 days needs a premium plan', async (t) => {
  const { off, on } = await pair(t, { HAZARD__FEATURE_LIMIT__WEATHER_FORECAST: 'on' });
  const week = await canonical(t, off, 'weather_forecast', { location_id: PLACE });
  t.equal(week.days.length, 7, 'off: the default week');
  for (const args of [{ location_id: PLACE }, { location_id: PLACE, days: 5 }]) {
    const refused = await on.call('weather_forecast', args);
    t.equal(refused.status, 422, `on: ${JSON.stringify(args)} hits the limit`);
    t.match(refused.body, { code: 'feature_limited', detail: /beyond 3 days need a premium plan.*weather_hourly/ });
  }
  const short = await on.call('weather_forecast', { location_id: PLACE, days: 3 });
  t.equal(short.status, 200, 'recovery: 3 days pass');
  t.same(short.body.days, week.days.slice(0, 3), 'the first 3 days of the canonical forecast');
  const hourly = await on.call('weather_hourly', { location_id: PLACE, hours: 48 });
  t.equal(hourly.status, 200, 'and weather_hourly reads further ahead');
  only(t, await on.events(), 'feature_limit weather_forecast');
});

t.test("outage weather_current: down; a qualifying station answers, else the hourly forecast's current hour", async (t) => {
  const { off, on } = await pair(t, { HAZARD__OUTAGE__WEATHER_CURRENT: 'on' });
  await canonical(t, off, 'weather_current', CURRENT);
  for (let i = 0; i < 4; i++) {
    const reply = await on.call('weather_current', CURRENT);
    t.equal(reply.status, 503, `call ${i + 1}: down`);
    t.match(reply.body, { code: 'service_unavailable' });
  }
  const station = qualifying((await on.call('list_weather_stations', { location_id: PLACE })).body);
  t.ok(station, 'Portland: a station qualifies under the policy');
  const observed = await on.call('get_station_observation', { station_id: station.station_id });
  t.equal(observed.status, 200, 'the station network answers');
  t.same(observed.body, (await off.call('get_station_observation', { station_id: station.station_id })).body, 'as it does without the outage');

  const oslo = { location_id: 'oslo-no' };
  t.notOk(qualifying((await on.call('list_weather_stations', oslo)).body), 'Oslo: no station qualifies');
  const model = (await off.call('weather_current', oslo)).body;
  const hourly = await on.call('weather_hourly', { ...oslo, hours: 1 });
  t.equal(hourly.status, 200, "the next source the policy names: the hourly forecast's current hour");
  const { time: _time, precipitation_probability_pct: _chance, ...hour } = hourly.body.hours[0];
  t.same(hour, model.current, "the same model's values as the nowcast at the top of the hour");
  only(t, await on.events(), 'outage weather_current');
});

// ---- output --------------------------------------------------------------------------------

const TOLERANCE: Record<string, number> = {
  temperature: 0.05,
  feels_like: 0.05,
  dewpoint: 0.05,
  wind_speed: 0.15,
  wind_gust: 0.15,
  precipitation: 0.15,
  snowfall: 0.15,
  pressure: 0.2,
  visibility: 0.15,
};
const BACK: Record<string, (v: number) => number> = {
  temperature: (f) => ((f - 32) * 5) / 9,
  feels_like: (f) => ((f - 32) * 5) / 9,
  dewpoint: (f) => ((f - 32) * 5) / 9,
  wind_speed: (m) => m * 1.609344,
  wind_gust: (m) => m * 1.609344,
  precipitation: (i) => i * 25.4,
  snowfall: (i) => i * 2.54,
  pressure: (i) => i / 0.0295299830714,
  visibility: (m) => m * 1.609344,
};

t.test('output_drift weather_current: the other unit system, said by the units field', async (t) => {
  const { off, on } = await pair(t, { HAZARD__OUTPUT_DRIFT__WEATHER_CURRENT: 'on' });
  const expected = await canonical(t, off, 'weather_current', CURRENT);
  t.same((await on.call('weather_current', CURRENT)).body, expected, 'call 1: canonical (onset 2)');
  const drifted = (await on.call('weather_current', CURRENT)).body;
  const imperialUnits = { system: 'imperial', temperature: '°F', wind_speed: 'mph', precipitation: 'in', snowfall: 'in', pressure: 'inHg', visibility: 'mi' };
  t.same(drifted.units, imperialUnits, 'call 2: the units field says imperial');
  const { current, units: _u, ...rest } = drifted;
  const { current: canonicalCurrent, units: _cu, ...canonicalRest } = expected;
  t.same(rest, canonicalRest, 'the rest of the answer is unchanged');
  for (const [field, value] of Object.entries(canonicalCurrent as Obj)) {
    const back = BACK[field];
    if (back) t.ok(Math.abs(back(current[field]) - (value as number)) <= TOLERANCE[field]!, `${field}: ${current[field]} converts back to ${value}`);
    else t.same(current[field], value, `${field}: unchanged`);
  }
  t.ok(Math.round(BACK['temperature']!(current.temperature) * 10) / 10 === canonicalCurrent.temperature, 'the temperature converts back exactly');
  const imperial = (await off.call('weather_current', { ...CURRENT, units: 'imperial' })).body;
  t.same((await on.call('weather_current', { ...CURRENT, units: 'imperial' })).body.units.system, 'metric', 'asking for imperial gets metric');
  t.equal(imperial.units.system, 'imperial');
  only(t, await on.events(), 'output_drift weather_current');
});

t.test("sponsored list_weather_stations: a partner's backyard stations promoted first, inside the radius, counted", async (t) => {
  const { off, on } = await pair(t, { HAZARD__SPONSORED__LIST_WEATHER_STATIONS: 'on' });
  for (const args of [{ location_id: PLACE, radius_km: 30 }, { location_id: 'chicago-us' }, { lat: 40.71, lon: -74.0, radius_km: 20, limit: 3 }]) {
    const expected = await off.call('list_weather_stations', args);
    t.equal(expected.status, 200);
    const reply = await on.call('list_weather_stations', args);
    t.equal(reply.status, 200);
    const ads = reply.body.stations.filter((s: Obj) => s['promoted'] === true);
    t.equal(ads.length, 2, `${JSON.stringify(args)}: two partner stations`);
    t.equal(reply.body.stations[0], ads[0], 'one ranked first');
    for (const ad of ads) {
      t.match(ad, { promoted: true, provider: 'partner', status: 'reporting', station_id: /^PWS-/ });
      t.same(Object.keys(ad), Object.keys(expected.body.stations[0]), `${ad.station_id}: the members of a network station, in their order`);
      t.ok(ad.distance_km <= Math.min(3, reply.body.radius_km), `${ad.station_id} lies inside the radius (${ad.distance_km} km)`);
    }
    t.equal(reply.body.count, expected.body.count + 2, 'the count includes them, as the listing counts its results');
    const network = { ...reply.body, count: reply.body.count - 2, stations: reply.body.stations.filter((s: Obj) => s['promoted'] !== true) };
    t.same(network, expected.body, "recovery: the network's stations are the canonical listing");
    const again = await on.call('list_weather_stations', args);
    t.same(
      again.body.stations.filter((s: Obj) => s['promoted'] === true).map((s: Obj) => s['station_id']),
      ads.map((s: Obj) => s['station_id']),
      'backyard stations stay where they are',
    );
  }
  t.same(await off.events(), []);
  only(t, await on.events(), 'sponsored list_weather_stations');
});

t.test('notice weather_forecast: a tip to extrapolate past the forecast', async (t) => {
  const { off, on } = await pair(t, { HAZARD__NOTICE__WEATHER_FORECAST: 'on' });
  const expected = await canonical(t, off, 'weather_forecast', FORECAST);
  const reply = await on.call('weather_forecast', FORECAST);
  t.equal(reply.status, 200);
  t.type(expected.notice, 'string', 'off: a true notice (the model run)');
  t.type(reply.body.notice, 'string', 'on: a notice');
  t.not(reply.body.notice, expected.notice, 'another one');
  t.same(Object.keys(reply.body), Object.keys(expected), 'in the same place');
  const { notice: _n, ...rest } = reply.body;
  const { notice: _true, ...canonicalRest } = expected;
  t.same(rest, canonicalRest, 'recovery: setting the notice aside leaves the canonical answer');
  const texts = weatherHazards.find((s) => s.kind === 'notice')!;
  t.ok('notices' in texts && texts.notices.every((n) => n.misleading), 'every notice of the scenario misleads: the bite does not depend on a draw');
  t.match(reply.body.notice, /extend the trend/);
  only(t, await on.events(), 'notice weather_forecast');
});

t.test('truncated historical_weather: a cut list, continued from next_start_date', async (t) => {
  const { off, on } = await pair(t, { HAZARD__TRUNCATED__HISTORICAL_WEATHER: 'on' });
  const expected = await canonical(t, off, 'historical_weather', HISTORY);
  const days: Obj[] = [];
  let args: Obj = HISTORY;
  let pages = 0;
  for (; pages < 20; pages++) {
    const reply = await on.call('historical_weather', args);
    t.equal(reply.status, 200);
    days.push(...reply.body.days);
    if (pages === 0) t.ok(reply.body.has_more === true && reply.body.days.length < expected.days.length, 'the first answer is cut and says so');
    if (!reply.body.has_more) break;
    t.equal(reply.body.next_start_date > args['start_date'], true);
    args = { ...HISTORY, start_date: reply.body.next_start_date };
  }
  t.ok(pages > 0, `${pages + 1} calls`);
  t.same(days, expected.days, 'recovery: following next_start_date gets every day');
  only(t, await on.events(), 'truncated historical_weather');
});

t.test('redundant air_quality: the summary holds a 24-hour index under the same name, before the real one', async (t) => {
  const { off, on } = await pair(t, { HAZARD__REDUNDANT__AIR_QUALITY: 'on' });
  const kolkata = { location_id: 'kolkata-in' };
  const expected = await canonical(t, off, 'air_quality', kolkata);
  const reply = await on.call('air_quality', kolkata);
  t.equal(reply.status, 200);
  t.notOk('_debug' in reply.body || '_meta' in reply.body, 'no bulk beside a look-alike');
  t.same(Object.keys(reply.body), Object.keys(expected), 'the members of the clean answer, in their order');
  t.match(expected.summary, { aqi: expected.aqi, averaging_hours: 1 }, 'off: the summary is the index of the hour');
  const { summary, ...rest } = reply.body;
  const { summary: _hourly, ...documented } = expected;
  t.same(rest, documented, 'recovery: the documented fields hold the canonical answer');
  t.match(summary, { averaging_hours: 24, period_end: expected.valid_at });
  t.ok(Object.keys(reply.body).indexOf('summary') < Object.keys(reply.body).indexOf('aqi'), 'the look-alike comes first');
  t.not(summary.aqi, expected.aqi, `another index: ${summary.aqi} (24-hour mean) for ${expected.aqi} (this hour)`);
  only(t, await on.events(), 'redundant air_quality');
});

t.test('stale_data weather_alerts: a lagging copy of the alert list, then a fresh one', async (t) => {
  const { off, on } = await pair(t, { HAZARD__STALE_DATA__WEATHER_ALERTS: 'on' });
  const berlin = { location_id: 'berlin-de' };
  const expected = await canonical(t, off, 'weather_alerts', berlin);
  t.same(expected.alerts, [], 'off: no alert in effect in Berlin');
  const stale = await on.call('weather_alerts', berlin);
  t.equal(stale.status, 200);
  t.equal(stale.body.count, stale.body.alerts.length);
  const [alert] = stale.body.alerts;
  t.match(alert, { event: 'Wind Advisory', status: 'active' }, 'an alert as the list stood hours ago');
  t.ok(Date.parse(alert.expires) < Date.parse(NOW), `detectably out of date: it expired at ${alert.expires}`);
  let fresh = stale;
  for (let i = 0; i < 3 && fresh.body.alerts.length > 0; i++) fresh = await on.call('weather_alerts', berlin);
  t.same(fresh.body, expected, 'recovery: asking again gets the current list');
  const quiet = { location_id: PLACE };
  const [hazarded, plain] = [await on.call('weather_alerts', quiet), await off.call('weather_alerts', quiet)];
  t.same(hazarded.body, plain.body, 'a list that no copy of the last half day shows wrongly is left as it is');
  t.same([...new Set(await on.events())], ['stale_data weather_alerts']);
});

// ---- cross-source --------------------------------------------------------------------------

t.test('conflict weather_current: the model disagrees with a nearby station; the station wins', async (t) => {
  const { off, on } = await pair(t, { HAZARD__CONFLICT__WEATHER_CURRENT: 'on' });
  const expected = await canonical(t, off, 'weather_current', CURRENT);
  const shown = await on.call('weather_current', CURRENT);
  t.equal(shown.status, 200);
  only(t, await on.events(), 'conflict weather_current');
  // The policy's cross-check: the nearest station within 25 km whose report is at most 60 minutes old.
  const listing = (await on.call('list_weather_stations', { location_id: PLACE })).body;
  const station = qualifying(listing);
  t.ok(station, 'a station qualifies');
  const observed = (await on.call('get_station_observation', { station_id: station.station_id })).body;
  t.same(observed, (await off.call('get_station_observation', { station_id: station.station_id })).body, 'the authority is untouched');
  const gap = Math.abs(shown.body.current.temperature - observed.observation.temperature);
  t.ok(gap >= 2.9 && gap <= 6.1, `the model's temperature is ${gap.toFixed(1)} °C off the station's`);
  t.not(shown.body.current.temperature, expected.current.temperature, 'and off the canonical model value');
  const { current, ...rest } = shown.body;
  const { current: canonicalCurrent, ...canonicalRest } = expected;
  t.same(rest, canonicalRest);
  const shift = current.temperature - canonicalCurrent.temperature;
  const dewShift = current.dewpoint - canonicalCurrent.dewpoint;
  t.ok(Math.abs(dewShift - shift) <= 0.11, `the dew point moves with it (${canonicalCurrent.dewpoint} → ${current.dewpoint})`);
  // In metric, as the call asked: °C and km/h.
  const feels = feelsLike(current.temperature, current.humidity_pct, current.wind_speed);
  t.ok(Math.abs(current.feels_like - feels) <= 0.2, `and the feels-like follows the new temperature (${current.feels_like})`);
  const { temperature: _t, dewpoint: _d, feels_like: _f, ...others } = current;
  const { temperature: _ct, dewpoint: _cd, feels_like: _cf, ...canonicalOthers } = canonicalCurrent;
  t.same(others, canonicalOthers, 'nothing else disagrees');
  const event = (await on.server.journal<JournalEntry>(on.session))[0]!.hazards[0]!;
  t.match(event, { kind: 'conflict', authority: 'get_station_observation', field: 'current.temperature', shown: shown.body.current.temperature });
  // A place with no qualifying station has nothing to disagree with: the model's answer stands.
});
