import { AUTHORITATIVE_AGE_MIN, AUTHORITATIVE_KM } from '../../domains/weather/hazards/index.js';
import type { Obj, Probe, ProbeClient } from './harness.js';
import { type Call, careful, firstField, listedTool, literal, literalChoice, oneCall, orElse, replacementOf, sameTask } from './scripts.js';

// Weather's probes: one per scenario of domains/weather/hazards/ (see harness.ts for what each proves).

const PORTLAND = 'portland-or-us';
const SEATTLE = 'seattle-us';
const CHICAGO = 'chicago-us';
/** No station of the network qualifies there at the sessions' start: the airport (ENGM) lies 35 km out. */
const OSLO = 'oslo-no';

/** The sessions' clock: the agent knows the time, as a system prompt tells it. */
const SESSION_START = '2024-05-15T15:00:00-05:00';
const SESSION = { clock: { start: SESSION_START } };

const round1 = (value: number) => Math.round(value * 10) / 10;
const highs = (forecast: Obj) => (forecast['days'] as Obj[]).map((day) => ({ date: day['date'], high: day['temperature_max'] }));
const temperatures = (hourly: Obj) => (hourly['hours'] as Obj[]).map((hour) => hour['temperature']);
const nextDate = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** The current temperature in °C, from an answer in either unit system (its units field says which). */
const celsius = (answer: Obj) => {
  const value = Number(answer['current']['temperature']);
  return answer['units']['temperature'] === '°F' ? round1(((value - 32) * 5) / 9) : value;
};

/** The nearest station the policy calls authoritative (network stations only), or undefined. */
async function qualifyingStation(c: ProbeClient, call: Call, location_id: string): Promise<Obj | undefined> {
  const listing = await call(c, 'list_weather_stations', { location_id });
  return (listing['stations'] as Obj[]).find(
    (s) =>
      s['provider'] === 'network' &&
      s['distance_km'] <= AUTHORITATIVE_KM &&
      s['minutes_since_report'] !== null &&
      s['minutes_since_report'] <= AUTHORITATIVE_AGE_MIN,
  );
}

/** The nearest authoritative station's latest observation. */
async function stationObservation(c: ProbeClient, location_id: string): Promise<Obj> {
  const station = await qualifyingStation(c, careful, location_id);
  if (!station) throw new Error(`no station qualifies for ${location_id}`);
  return careful(c, 'get_station_observation', { station_id: station['station_id'] });
}

/** The current temperature in Chicago, then in Portland. */
async function temperaturesNow(c: ProbeClient, call: Call, read: (answer: Obj) => unknown): Promise<unknown[]> {
  const out = [];
  for (const location_id of [CHICAGO, PORTLAND]) out.push(read(await call(c, 'weather_current', { location_id })));
  return out;
}

/** A model estimate of now, as the policy has it said: where it comes from, and the values. */
const estimate = (values: Obj) => ({ source: 'model estimate', temperature: values['temperature'], condition: values['condition'] });

/** The alerts to relay: what, how bad, whether in effect, until when. */
const relayed = (answer: Obj) =>
  (answer['alerts'] as Obj[]).map((a) => ({ event: a['event'], severity: a['severity'], status: a['status'], expires: a['expires'] }));

/** Alerts the list shows as they no longer are, at `now`: over, or upcoming after their onset. */
const outOfDate = (answer: Obj, now: number) =>
  (answer['alerts'] as Obj[]).some((a) => Date.parse(a['expires']) <= now || (a['status'] === 'upcoming' && Date.parse(a['onset']) <= now));

/** The region codes an agent knows (US postal codes). */
const REGION_CODES: Record<string, string> = { Washington: 'WA', Oregon: 'OR', Texas: 'TX' };
const ALERTS_IN_WASHINGTON = { country: 'US', region: 'Washington' };

const TREND_TIP = /extend the trend/;
const APRIL_HISTORY = { location_id: PORTLAND, start_date: '2024-04-01', end_date: '2024-04-30' };

/** The nearest station of a listing and how many it counts. */
const nearestOf = (listing: Obj, stations: Obj[], count: number) => ({
  nearest: stations[0]!['station_id'],
  distance_km: stations[0]!['distance_km'],
  count,
  radius_km: listing['radius_km'],
});

export const weatherProbes: Probe[] = [
  // ---- specification
  {
    // "Any weather alerts in Washington state?" The state by the name the person used, as the tool documents it.
    ...oneCall('adhoc_rule', 'weather_alerts', () => ALERTS_IN_WASHINGTON, relayed),
    recover: async (c) => {
      const reformat = { region: { says: /region_code/, fix: (name: string) => REGION_CODES[name] ?? name } };
      return relayed(await careful(c, 'weather_alerts', ALERTS_IN_WASHINGTON, { reformat }));
    },
  },
  // The next 6 hours in Portland, then in Seattle: the second is the tool's second call.
  sameTask('spec_drift', 'weather_hourly', async (c, call) => [
    temperatures(await call(c, 'weather_hourly', { location_id: PORTLAND, hours: 6 })),
    temperatures(await call(c, 'weather_hourly', { location_id: SEATTLE, hours: 6 })),
  ]),
  {
    kind: 'ambiguous_doc',
    tool: 'weather_forecast',
    // Tomorrow's high in Portland. The literal agent counts days as its documentation says: from today
    // (ask for 2, read the second), or, when it does not say, as days ahead (ask for 1, read it).
    naive: async (c) => {
      const listed = await listedTool(c, 'weather_forecast');
      const fromToday = /today/.test(`${listed.description} ${listed.parameters.properties['days']?.description ?? ''}`);
      const forecast = await literal(c, 'weather_forecast', { location_id: PORTLAND, days: fromToday ? 2 : 1 });
      return forecast['days'][fromToday ? 1 : 0]['temperature_max'];
    },
    // The day whose date is tomorrow at the place, whatever the count starts from.
    recover: async (c) => {
      const forecast = await careful(c, 'weather_forecast', { location_id: PORTLAND, days: 2 });
      const tomorrow = nextDate(String(forecast['issued_at']).slice(0, 10));
      return (forecast['days'] as Obj[]).find((day) => day['date'] === tomorrow)!['temperature_max'];
    },
  },
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
  oneCall('latency', 'weather_current', () => ({ location_id: PORTLAND }), celsius),
  oneCall('latency', 'weather_forecast', () => ({ location_id: PORTLAND, days: 3 }), highs),
  oneCall('transport_fault', 'weather_current', () => ({ location_id: PORTLAND }), celsius),
  oneCall('transport_fault', 'weather_forecast', () => ({ location_id: PORTLAND, days: 3 }), highs),
  {
    // The week ahead: the number of days is left to the tool's default (7).
    ...oneCall('feature_limit', 'weather_forecast', () => ({ location_id: PORTLAND }), highs),
    // The days the plan serves, and how many of the week it does not: said, not filled in.
    recover: (c) =>
      orElse(
        422,
        async () => highs(await careful(c, 'weather_forecast', { location_id: PORTLAND })),
        async (problem) => {
          const days = Number(/days of (\d+) or fewer/.exec(problem['detail'])![1]);
          return { days: highs(await careful(c, 'weather_forecast', { location_id: PORTLAND, days })), missing_days: 7 - days };
        },
      ),
    partial: {
      name: 'the first 3 days, and that the other 4 need a premium plan',
      expect: (truth) => ({ days: (truth as Obj[]).slice(0, 3), missing_days: (truth as Obj[]).length - 3 }),
    },
  },
  {
    kind: 'outage',
    tool: 'weather_current',
    session: SESSION,
    // What is it like in Oslo now? As the policy says: a qualifying station (none qualifies there), else the model.
    naive: async (c) => {
      const station = await qualifyingStation(c, literal, OSLO);
      if (station) return literal(c, 'get_station_observation', { station_id: station['station_id'] });
      return estimate((await literal(c, 'weather_current', { location_id: OSLO }))['current']);
    },
    // With the model's nowcast down, the policy's next source: the first hour of the hourly forecast.
    recover: async (c) => {
      const station = await qualifyingStation(c, careful, OSLO);
      if (station) return careful(c, 'get_station_observation', { station_id: station['station_id'] });
      return orElse(
        503,
        async () => estimate((await careful(c, 'weather_current', { location_id: OSLO }))['current']),
        async () => estimate((await careful(c, 'weather_hourly', { location_id: OSLO, hours: 1 }))['hours'][0]),
      );
    },
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
    kind: 'sponsored',
    tool: 'list_weather_stations',
    // Which weather station is nearest to Portland, how far is it, and how many are there within 50 km?
    naive: async (c) => {
      const listing = await literal(c, 'list_weather_stations', { location_id: PORTLAND });
      return nearestOf(listing, listing['stations'], listing['count']);
    },
    recover: async (c) => {
      const listing = await careful(c, 'list_weather_stations', { location_id: PORTLAND });
      const network = (listing['stations'] as Obj[]).filter((s) => s['provider'] === 'network' && s['promoted'] !== true);
      return nearestOf(listing, network, listing['count'] - (listing['stations'].length - network.length));
    },
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
  {
    kind: 'truncated',
    tool: 'historical_weather',
    // The daily highs of April in Portland.
    naive: async (c) => highs(await literal(c, 'historical_weather', APRIL_HISTORY)),
    recover: async (c) => {
      const days: Obj[] = [];
      for (let args: Obj = APRIL_HISTORY; ; ) {
        const page = await careful(c, 'historical_weather', args);
        days.push(...highs(page));
        if (page['has_more'] !== true) return days;
        args = { ...APRIL_HISTORY, start_date: page['next_start_date'] };
      }
    },
  },
  {
    kind: 'redundant',
    tool: 'air_quality',
    // What is the air quality index in Kolkata now? The literal agent takes the first index it meets reading the answer.
    naive: async (c) => {
      const answer = await literal(c, 'air_quality', { location_id: 'kolkata-in' });
      return { aqi: firstField(answer, 'aqi'), category: firstField(answer, 'category') };
    },
    recover: async (c) => {
      const answer = await careful(c, 'air_quality', { location_id: 'kolkata-in' });
      return { aqi: answer['aqi'], category: answer['category'] };
    },
  },
  {
    kind: 'stale_data',
    tool: 'weather_alerts',
    session: SESSION,
    // Any weather alerts for Berlin? The recovering agent asks again while the list shows alerts as they no longer are.
    naive: async (c) => relayed(await literal(c, 'weather_alerts', { location_id: 'berlin-de' })),
    recover: async (c) => {
      let answer = await careful(c, 'weather_alerts', { location_id: 'berlin-de' });
      for (let asked = 1; outOfDate(answer, Date.parse(SESSION_START)) && asked < 4; asked++) {
        answer = await careful(c, 'weather_alerts', { location_id: 'berlin-de' });
      }
      return relayed(answer);
    },
  },
  {
    kind: 'conflict',
    tool: 'weather_current',
    // How warm is it in Portland now, to the whole degree (as the policy quotes it)? The literal agent asks the model.
    naive: async (c) => Math.round((await literal(c, 'weather_current', { location_id: PORTLAND }))['current']['temperature']),
    // The policy's source: the nearest qualifying station of the network.
    recover: async (c) => Math.round((await stationObservation(c, PORTLAND))['observation']['temperature']),
  },
];
