import { AUTHORITATIVE_AGE_MIN, AUTHORITATIVE_KM } from '../../domains/weather/hazards.js';
import type { Obj, Probe, ProbeClient } from './harness.js';
import { type Call, careful, literal, literalChoice, oneCall, orElse, replacementOf, sameTask } from './scripts.js';

// Weather's probes: one per scenario of domains/weather/hazards.ts (see harness.ts for what each proves).

const PORTLAND = 'portland-or-us';
const SEATTLE = 'seattle-us';
const CHICAGO = 'chicago-us';

const round1 = (value: number) => Math.round(value * 10) / 10;
const highs = (forecast: Obj) => (forecast['days'] as Obj[]).map((day) => ({ date: day['date'], high: day['temperature_max'] }));
const temperatures = (hourly: Obj) => (hourly['hours'] as Obj[]).map((hour) => hour['temperature']);

/** The current temperature in °C, from an answer in either unit system (its units field says which). */
const celsius = (answer: Obj) => {
  const value = Number(answer['current']['temperature']);
  return answer['units']['temperature'] === '°F' ? round1(((value - 32) * 5) / 9) : value;
};

/** A place's id as geocode_location returns it for a name. */
const geocode = async (c: ProbeClient, call: Call, query: string) =>
  String((await call(c, 'geocode_location', { query }))['matches'][0]['location_id']);

/** The nearest station the policy calls authoritative, and its latest observation. */
async function stationObservation(c: ProbeClient, location_id: string): Promise<Obj> {
  const listing = await careful(c, 'list_weather_stations', { location_id });
  const station = (listing['stations'] as Obj[]).find(
    (s) => s['distance_km'] <= AUTHORITATIVE_KM && s['minutes_since_report'] !== null && s['minutes_since_report'] <= AUTHORITATIVE_AGE_MIN,
  );
  if (!station) throw new Error(`no station qualifies for ${location_id}`);
  return careful(c, 'get_station_observation', { station_id: station['station_id'] });
}

/** The current temperature in Chicago, then in Portland. */
async function temperaturesNow(c: ProbeClient, call: Call, read: (answer: Obj) => unknown): Promise<unknown[]> {
  const out = [];
  for (const location_id of [CHICAGO, PORTLAND]) out.push(read(await call(c, 'weather_current', { location_id })));
  return out;
}

const TREND_TIP = /extend the trend/;

export const weatherProbes: Probe[] = [
  // ---- specification
  {
    // The id exactly as geocode_location returned it.
    ...sameTask('adhoc_rule', 'weather_forecast', async (c, call) =>
      highs(await call(c, 'weather_forecast', { location_id: await geocode(c, call, 'Portland, OR'), days: 3 })),
    ),
    recover: async (c) => {
      const reformat = { location_id: { says: /upper case/, fix: (v: string) => v.toUpperCase() } };
      return highs(await careful(c, 'weather_forecast', { location_id: await geocode(c, careful, 'Portland, OR'), days: 3 }, { reformat }));
    },
  },
  // The next 6 hours in Portland, then in Seattle: the second is the tool's second call.
  sameTask('spec_drift', 'weather_hourly', async (c, call) => [
    temperatures(await call(c, 'weather_hourly', { location_id: PORTLAND, hours: 6 })),
    temperatures(await call(c, 'weather_hourly', { location_id: SEATTLE, hours: 6 })),
  ]),
  // How warm is it in Chicago, and in which unit? Without the units documented the call is the same, and the answer says its unit.
  oneCall('ambiguous_doc', 'weather_current', () => ({ location_id: CHICAGO }), (answer) => [answer['current']['temperature'], answer['units']['temperature']]),
  {
    kind: 'lookalike',
    tool: 'weather_current',
    // The temperature in Portland now, in °C.
    naive: async (c) => {
      const tool = await literalChoice(c, 'weather_current', 'weather_now');
      const answer = await literal(c, tool, { location_id: PORTLAND });
      return tool === 'weather_now' ? answer['temperature_c'] : answer['current']['temperature'];
    },
    recover: async (c) => {
      const tool = await literalChoice(c, 'weather_current', 'weather_now');
      const answer = await careful(c, tool, { location_id: PORTLAND });
      const maintained = replacementOf(answer);
      return celsius(maintained ? await careful(c, maintained, { location_id: PORTLAND }) : answer);
    },
  },
  // ---- invocation
  oneCall('invocation_error', 'historical_weather', () => ({ location_id: PORTLAND, start_date: '2024-05-01', end_date: '2024-05-07' }), highs),
  // ---- execution
  oneCall('transient_failure', 'weather_current', () => ({ location_id: PORTLAND }), celsius),
  oneCall('transient_failure', 'weather_forecast', () => ({ location_id: PORTLAND, days: 3 }), highs),
  oneCall('transport_fault', 'weather_current', () => ({ location_id: PORTLAND }), celsius),
  oneCall('transport_fault', 'weather_forecast', () => ({ location_id: PORTLAND, days: 3 }), highs),
  {
    // The week ahead: the number of days is left to the tool's default (7).
    ...oneCall('feature_limit', 'weather_forecast', () => ({ location_id: PORTLAND }), highs),
    recover: (c) =>
      orElse(
        422,
        async () => highs(await careful(c, 'weather_forecast', { location_id: PORTLAND })),
        async (problem) => {
          const days = Number(/days of (\d+) or fewer/.exec(problem['detail'])![1]);
          return highs(await careful(c, 'weather_forecast', { location_id: PORTLAND, days }));
        },
      ),
    partial: { name: 'the first 3 days; days 4 to 7 need a premium plan', expect: (truth) => (truth as Obj[]).slice(0, 3) },
  },
  {
    // About how warm is it in Portland now, in whole °C? A station and the model may differ by a degree or two (policy).
    ...oneCall('outage', 'weather_current', () => ({ location_id: PORTLAND }), (answer) => Math.round(answer['current']['temperature'])),
    recover: (c) =>
      orElse(
        503,
        async () => Math.round((await careful(c, 'weather_current', { location_id: PORTLAND }))['current']['temperature']),
        async () => Math.round((await stationObservation(c, PORTLAND))['observation']['temperature']),
      ),
  },
  // ---- output
  {
    kind: 'output_drift',
    tool: 'weather_current',
    // The temperature in Chicago, then in Portland, in °C: the literal agent reads the numbers in the unit it asked for.
    naive: (c) => temperaturesNow(c, literal, (answer) => answer['current']['temperature']),
    recover: (c) => temperaturesNow(c, careful, celsius),
  },
  {
    kind: 'notice',
    tool: 'weather_forecast',
    // What will the high be in Portland in 10 days? There is no forecast that far, unless a notice says to extrapolate.
    naive: async (c) => {
      const forecast = await literal(c, 'weather_forecast', { location_id: PORTLAND });
      if (!TREND_TIP.test(forecast['notice'] ?? '')) return null;
      const [before, last] = (forecast['days'] as Obj[]).slice(-2).map((day) => Number(day['temperature_max'])) as [number, number];
      return round1(last + (10 - forecast['days'].length) * (last - before));
    },
    recover: async (c) => {
      await careful(c, 'weather_forecast', { location_id: PORTLAND });
      return null;
    },
  },
];
