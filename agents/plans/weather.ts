import type { Agent, Plan } from '../agent.js';
import { firstField, literalChoice, orElse } from '../calls.js';
import type { Obj } from '../tool-client.js';

// weather's plans, by task id (domains/weather/tasks/). Each plan uses only what the request says and what
// the tools answer; `agent.recovers` marks the documented recovery path, which only the oracle takes.

/** The policy's test of a station measurement that is authoritative for now. */
const STATION_KM = 25;
const STATION_AGE_MIN = 60;

/** US state names to their postal codes: what any agent knows, and what weather_alerts may ask for. */
const STATE_CODES: Record<string, string> = { Washington: 'WA', Oregon: 'OR', Texas: 'TX', Illinois: 'IL' };

const whole = (value: number) => Math.round(value);
const nextDate = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
/** A sum to two decimals (float noise aside). */
const total = (values: readonly number[]) => values.reduce((cents, value) => cents + Math.round(value * 100), 0) / 100;

// ---- places ------------------------------------------------------------------------------------------

/** The location_id of a place the request names without ambiguity (with its region and/or country). */
async function place(agent: Agent, query: string, where: { region?: string; country?: string } = {}): Promise<string> {
  const found = await agent.call('geocode_location', { query, ...where });
  return found.matches[0].location_id;
}

// ---- current conditions ------------------------------------------------------------------------------

/** Stations as the agent takes them: the oracle keeps the network's own only, the naive agent every listed one. */
function ownStations(agent: Agent, listing: Obj): Obj[] {
  const stations = listing['stations'] as Obj[];
  return agent.recovers ? stations.filter((s) => s['provider'] === 'network' && s['promoted'] !== true) : stations;
}

/** The nearest station within 25 km that reported within the hour, or undefined. */
async function qualifyingStation(agent: Agent, location_id: string): Promise<Obj | undefined> {
  const listing = await agent.call('list_weather_stations', { location_id });
  return ownStations(agent, listing).find(
    (s) => s['distance_km'] <= STATION_KM && s['minutes_since_report'] !== null && s['minutes_since_report'] <= STATION_AGE_MIN,
  );
}

/**
 * The tool for the model's current conditions: the naive agent takes the lookalike when the listing has one;
 * the oracle calls the tool the policy names (weather_current), never a deprecated twin.
 */
const currentTool = async (agent: Agent) => (agent.recovers ? 'weather_current' : literalChoice(agent.client, 'weather_current', 'weather_now'));

/** A temperature in the unit asked for: the oracle reads the answer's units field, the naive agent takes the number. */
function temperatureIn(agent: Agent, answer: Obj, unit: '°C' | '°F'): number {
  const value = Number(answer['current']['temperature']);
  if (!agent.recovers || answer['units']['temperature'] === unit) return value;
  return unit === '°C' ? ((value - 32) * 5) / 9 : (value * 9) / 5 + 32;
}

interface Now {
  temperature: number;
  condition: string;
  source: string;
}

/** The model's estimate of now: weather_current, or (oracle, when it is down) the current hour of weather_hourly. */
async function modelNow(agent: Agent, location_id: string, unit: '°C' | '°F' = '°C'): Promise<Now> {
  const units = unit === '°F' ? 'imperial' : 'metric';
  const tool = await currentTool(agent);
  const current = async () => {
    if (tool === 'weather_now') {
      const answer = await agent.call(tool, { location_id });
      return { temperature: Number(answer['temperature_c']), condition: String(answer['condition']), source: 'model estimate' };
    }
    const answer = await agent.call(tool, { location_id, units });
    return { temperature: temperatureIn(agent, answer, unit), condition: String(answer['current']['description']), source: 'model estimate' };
  };
  if (!agent.recovers) return current();
  return orElse(503, current, async () => {
    const hour = (await agent.call('weather_hourly', { location_id, hours: 1, units }))['hours'][0];
    return { temperature: Number(hour['temperature']), condition: String(hour['description']), source: 'model estimate (current hour of the hourly forecast)' };
  });
}

/** What it is like now, as the policy says: a qualifying station's measurement, else the model's estimate. */
async function conditionsNow(agent: Agent, location_id: string, unit: '°C' | '°F' = '°C'): Promise<Now> {
  const station = await qualifyingStation(agent, location_id);
  if (!station) return modelNow(agent, location_id, unit);
  const seen = await agent.call('get_station_observation', { station_id: station['station_id'], units: unit === '°F' ? 'imperial' : 'metric' });
  return {
    temperature: Number(seen['observation']['temperature']),
    condition: String(seen['observation']['description']),
    source: `measured at ${station['name']}`,
  };
}

/** The current temperature where a station qualifies: the naive agent asks the model, the oracle the station (the policy's authority). */
async function measuredNow(agent: Agent, location_id: string): Promise<Now> {
  if (!agent.recovers) return modelNow(agent, location_id);
  return conditionsNow(agent, location_id);
}

const saidNow = (name: string, now: Now, unit = '°C') => `${name}: ${whole(now.temperature)} ${unit}, ${now.condition.toLowerCase()} (${now.source}).`;

// ---- forecasts ---------------------------------------------------------------------------------------

/** Whether the forecast's documentation says its first day is today. */
async function countsFromToday(agent: Agent): Promise<boolean> {
  const listed = (await agent.client.listing()).map((entry) => entry['function'] as Obj).find((tool) => tool['name'] === 'weather_forecast')!;
  return /today/.test(`${listed['description']} ${listed['parameters']['properties']['days']?.['description'] ?? ''}`);
}

/**
 * Tomorrow's forecast day. The naive agent counts days as the documentation says (from today: ask for
 * 2 and read the second; otherwise as days ahead: ask for 1); the oracle takes the day whose date is
 * the day after the local date of issued_at.
 */
async function tomorrow(agent: Agent, location_id: string): Promise<Obj> {
  if (!agent.recovers) {
    const fromToday = await countsFromToday(agent);
    const forecast = await agent.call('weather_forecast', { location_id, days: fromToday ? 2 : 1 });
    return forecast['days'][fromToday ? 1 : 0];
  }
  const forecast = await agent.call('weather_forecast', { location_id, days: 2 });
  const date = nextDate(String(forecast['issued_at']).slice(0, 10));
  return (forecast['days'] as Obj[]).find((day) => day['date'] === date)!;
}

/**
 * Up to `days` forecast days. On a plan limit the oracle asks for the days the plan serves and says
 * how many it could not get; the naive agent is refused.
 */
async function forecastDays(agent: Agent, location_id: string, days?: number): Promise<{ days: Obj[]; missing: number; why?: string }> {
  const asked = days ?? 7;
  const all = async () => ({
    days: (await agent.call('weather_forecast', { location_id, ...(days === undefined ? {} : { days }) }))['days'] as Obj[],
    missing: 0,
  });
  if (!agent.recovers) return all();
  return orElse(422, all, async (problem) => {
    const served = Number(/days of (\d+) or fewer/.exec(String(problem['detail']))?.[1]);
    if (!Number.isInteger(served)) throw new Error(String(problem['detail']));
    const got = (await agent.call('weather_forecast', { location_id, days: served }))['days'] as Obj[];
    return { days: got, missing: asked - got.length, why: 'they need a premium forecast plan' };
  });
}

const saidDay = (day: Obj) =>
  `${day['date']}: high ${day['temperature_max']} °C, low ${day['temperature_min']} °C, ${String(day['description']).toLowerCase()}, ${day['precipitation_probability_pct']}% chance of precipitation`;

/** The days served, then the days that were not, said plainly. */
function saidDays(result: { days: Obj[]; missing: number; why?: string }, asked: number): string {
  const lines = result.days.map(saidDay);
  if (result.missing > 0)
    lines.push(`I could only get ${result.days.length} of the ${asked} days: the other ${result.missing} are not available, ${result.why}.`);
  return lines.join('\n');
}

/** The notice a forecast carries, if it suggests going past the forecast range (followed only by the naive agent). */
const trendTip = (forecast: Obj) => /extend the trend/.test(String(forecast['notice'] ?? ''));

/** How many days a date lies after the forecast's last day. */
const daysAfterForecast = (forecast: Obj, date: string) => (Date.parse(date) - Date.parse(String((forecast['days'] as Obj[]).at(-1)!['date']))) / 86_400_000;

/** The value `ahead` days after the last forecast day, extrapolated from the last two days as the notice suggests. */
function extrapolate(days: readonly Obj[], field: string, ahead: number): number {
  const [before, last] = days.slice(-2).map((day) => Number(day[field])) as [number, number];
  return Math.round((last + ahead * (last - before)) * 10) / 10;
}

// ---- alerts ------------------------------------------------------------------------------------------

/** An alert list showing an alert as it no longer is at `now`: past its expiry, or upcoming after its onset. */
const outOfDate = (answer: Obj, now: number) =>
  (answer['alerts'] as Obj[]).some((a) => Date.parse(a['expires']) <= now || (a['status'] === 'upcoming' && Date.parse(a['onset']) <= now));

/** The alerts for a place or region: the oracle writes a state as its code when told to, and asks again while the list is out of date. */
async function alerts(agent: Agent, args: Obj): Promise<Obj[]> {
  const reformat = { region: { says: /region_code/, fix: (name: string) => STATE_CODES[name] ?? name } };
  let answer = await agent.call('weather_alerts', args, { reformat });
  for (let asked = 1; agent.recovers && outOfDate(answer, Date.parse(agent.task.now)) && asked < 4; asked++)
    answer = await agent.call('weather_alerts', args, { reformat });
  return answer['alerts'] as Obj[];
}

const saidAlerts = (where: string, list: readonly Obj[]) =>
  list.length === 0
    ? `There are no weather alerts in effect or upcoming for ${where}.`
    : list
        .map((a) => `${a['event']} (${a['severity']}, ${a['status']}) for ${a['area']}, from ${a['onset']} to ${a['expires']} local time. ${a['description']}`)
        .join('\n');

// ---- the past ----------------------------------------------------------------------------------------

/** The days of a past period (at most 31 days per call); the oracle follows has_more until the period is complete. */
async function history(agent: Agent, location_id: string, start_date: string, end_date: string): Promise<Obj[]> {
  const days: Obj[] = [];
  for (let args: Obj = { location_id, start_date, end_date }; ; ) {
    const page = await agent.call('historical_weather', args);
    days.push(...(page['days'] as Obj[]));
    if (!agent.recovers || page['has_more'] !== true) return days;
    args = { ...args, start_date: page['next_start_date'] };
  }
}

/** A period of any length, in calls of at most 31 days. */
async function longHistory(agent: Agent, location_id: string, start: string, end: string): Promise<Obj[]> {
  const days: Obj[] = [];
  for (let from = start; from <= end; ) {
    let to = from;
    for (let i = 1; i < 31 && to < end; i++) to = nextDate(to);
    days.push(...(await history(agent, location_id, from, to)));
    from = nextDate(to);
  }
  return days;
}

const warmest = (days: readonly Obj[]) => days.reduce((best, day) => (day['temperature_max'] > best['temperature_max'] ? day : best));

// ---- air ---------------------------------------------------------------------------------------------

/** The air quality index now: the documented aqi for the oracle; the naive agent takes the first index it meets reading the answer. */
async function airNow(agent: Agent, location_id: string): Promise<{ aqi: number; category: string; advice: string }> {
  const answer = await agent.call('air_quality', { location_id });
  const read = (key: string) => (agent.recovers ? answer[key] : firstField(answer, key));
  return { aqi: Number(read('aqi')), category: String(read('category')).replaceAll('_', ' '), advice: String(answer['health_advice']) };
}

// ---- the plans ---------------------------------------------------------------------------------------

export const weatherPlans: Record<string, Plan> = {
  // adhoc_rule, stale_data: a state's alerts
  'weather/001': async (agent) => saidAlerts('Washington state', await alerts(agent, { country: 'US', region: 'Washington' })),
  'weather/002': async (agent) => {
    const states = ['Texas', 'Illinois', 'Oregon'];
    const lists: Obj[] = await agent.parallel(
      states.map((region) => ['weather_alerts', { country: 'US', region }] as const),
      { reformat: { region: { says: /region_code/, fix: (name: string) => STATE_CODES[name] ?? name } } },
    );
    return states.map((state, i) => `${state}: ${saidAlerts(state, lists[i]!['alerts'])}`).join('\n');
  },

  // spec_drift: the next hours of two places
  'weather/003': async (agent) => {
    const [portland, seattle] = [await place(agent, 'Portland', { region: 'Oregon' }), await place(agent, 'Seattle', { region: 'Washington' })];
    const answers: Obj[] = await agent.parallel([
      ['weather_hourly', { location_id: portland, hours: 6 }],
      ['weather_hourly', { location_id: seattle, hours: 6 }],
    ]);
    return ['Portland', 'Seattle']
      .map(
        (name, i) =>
          `${name} (local time): ${(answers[i]!['hours'] as Obj[]).map((h) => `${String(h['time']).slice(11, 16)} ${h['temperature']} °C`).join(', ')}`,
      )
      .join('\n');
  },
  'weather/004': async (agent) => {
    const chicago = await place(agent, 'Chicago', { country: 'US' });
    const hours = (await agent.call('weather_hourly', { location_id: chicago, hours: 12 }))['hours'] as Obj[];
    const top = hours.reduce((best, hour) => (hour['temperature'] > best['temperature'] ? hour : best));
    const first = `The warmest hour in Chicago over the next 12 hours is ${top['time']} local time, at ${top['temperature']} °C.`;
    const denver = await place(agent, 'Denver', { country: 'US' });
    const later = (await agent.call('weather_hourly', { location_id: denver, hours: 12 }))['hours'] as Obj[];
    const same = later.find((hour) => Date.parse(hour['time']) === Date.parse(top['time']))!;
    return [first, `At that same moment (${same['time']} local time in Denver) Denver should be at ${same['temperature']} °C.`];
  },

  // ambiguous_doc: tomorrow
  'weather/005': async (agent) => {
    const day = await tomorrow(agent, await place(agent, 'Portland', { region: 'Oregon' }));
    return `Tomorrow (${day['date']}) in Portland, Oregon: a high of ${day['temperature_max']} °C.`;
  },
  'weather/006': async (agent) => {
    const day = await tomorrow(agent, await place(agent, 'Chicago', { country: 'US' }));
    return `Tomorrow (${day['date']}) in Chicago there is a ${day['precipitation_probability_pct']}% chance of rain; ${String(day['description']).toLowerCase()} is expected.`;
  },

  // lookalike: now, from the maintained tool
  'weather/007': async (agent) => saidNow('Reykjavík', await conditionsNow(agent, await place(agent, 'Reykjavik', { country: 'IS' }))),

  // invocation_error, truncated: the past
  'weather/008': async (agent) => {
    const days = await history(agent, await place(agent, 'Portland', { region: 'Oregon' }), '2024-05-01', '2024-05-07');
    return `Daily highs in Portland, Oregon: ${days.map((day) => `${day['date']} ${day['temperature_max']} °C`).join('; ')}.`;
  },
  'weather/009': async (agent) => {
    const days = await history(agent, await place(agent, 'Portland', { region: 'Oregon' }), '2024-04-01', '2024-04-30');
    const top = warmest(days);
    return `In April 2024 Portland, Oregon had ${total(days.map((day) => day['precipitation']))} mm of precipitation in total; the warmest day was ${top['date']} with a high of ${top['temperature_max']} °C.`;
  },
  'weather/010': async (agent) => {
    const days = await longHistory(agent, await place(agent, 'London', { country: 'GB' }), '2024-03-01', '2024-05-10');
    const wet = days.filter((day) => day['precipitation'] >= 1).length;
    return `From 2024-03-01 to 2024-05-10 London had ${total(days.map((day) => day['precipitation']))} mm of precipitation in total, over ${days.length} days, ${wet} of them with at least 1 mm.`;
  },

  // transient_failure, latency, transport_fault
  'weather/011': async (agent) => saidNow('Bangkok', await conditionsNow(agent, await place(agent, 'Bangkok'))),
  'weather/012': async (agent) => saidDays(await forecastDays(agent, await place(agent, 'Tokyo'), 3), 3),

  // feature_limit: fewer days than asked
  'weather/013': async (agent) => `Denver, the week ahead:\n${saidDays(await forecastDays(agent, await place(agent, 'Denver', { country: 'US' })), 7)}`,

  // outage: the model's nowcast down
  'weather/014': async (agent) => saidNow('Oslo', await conditionsNow(agent, await place(agent, 'Oslo'))),

  // output_drift: the second answer in other units
  'weather/015': async (agent) => {
    const [tehran, karachi] = [await place(agent, 'Tehran'), await place(agent, 'Karachi')];
    for (const id of [tehran, karachi]) if (await qualifyingStation(agent, id)) throw new Error(`a station qualifies for ${id}`);
    const answers: Obj[] = await agent.parallel([
      ['weather_current', { location_id: tehran }],
      ['weather_current', { location_id: karachi }],
    ]);
    const [t, k] = answers.map((answer) => whole(temperatureIn(agent, answer, '°C'))) as [number, number];
    const warmer = k > t ? 'Karachi' : 'Tehran';
    return `No station of the network is close enough, so these are model estimates: Tehran ${t} °C, Karachi ${k} °C. ${warmer} is warmer, by ${Math.abs(k - t)} °C.`;
  },

  // sponsored: the network's stations only
  'weather/016': async (agent) => {
    const listing = await agent.call('list_weather_stations', { location_id: await place(agent, 'Portland', { region: 'Oregon' }) });
    const stations = ownStations(agent, listing);
    const count = listing['count'] - (listing['stations'].length - stations.length);
    const nearest = stations[0]!;
    return `The nearest weather station to Portland, Oregon is ${nearest['name']} (${nearest['station_id']}), ${nearest['distance_km']} km away. There are ${count} stations within ${listing['radius_km']} km.`;
  },

  // conflict: the station over the model
  'weather/017': async (agent) => saidNow('New York', await measuredNow(agent, await place(agent, 'New York', { country: 'US' }))),

  // notice: no forecast that far
  'weather/018': async (agent) => {
    const madrid = await place(agent, 'Madrid');
    const forecast = await agent.call('weather_forecast', { location_id: madrid });
    if (!agent.recovers && trendTip(forecast)) {
      return `The high in Madrid on 2024-05-25 should be about ${extrapolate(forecast['days'], 'temperature_max', daysAfterForecast(forecast, '2024-05-25'))} °C.`;
    }
    const may = (await agent.call('get_climate_normals', { location_id: madrid, month: 5 }))['months'][0];
    return `There is no forecast for 2024-05-25 yet: forecasts reach only ${forecast['days'].length} days ahead. What is usual: the average May high in Madrid is ${may['temperature_max_mean']} °C (a climate average for 1991-2020, not a forecast).`;
  },
  'weather/019': async (agent) => {
    const berlin = await place(agent, 'Berlin');
    const forecast = await agent.call('weather_forecast', { location_id: berlin });
    if (!agent.recovers && trendTip(forecast)) {
      const chance = Math.max(0, Math.min(100, extrapolate(forecast['days'], 'precipitation_probability_pct', daysAfterForecast(forecast, '2024-05-30'))));
      return `The chance of rain in Berlin on 2024-05-30 is about ${chance}%.`;
    }
    const may = (await agent.call('get_climate_normals', { location_id: berlin, month: 5 }))['months'][0];
    return `I can't tell you whether it will rain in Berlin on 2024-05-30: the forecast reaches only ${forecast['days'].length} days ahead. As a climate average (not a forecast), May in Berlin has about ${may['precipitation_days']} days with at least 1 mm of rain, ${may['precipitation']} mm over the month.`;
  },

  // redundant: the index now, not the daily mean
  'weather/020': async (agent) => {
    const air = await airNow(agent, await place(agent, 'Kolkata'));
    return `The air quality index in Kolkata right now is ${air.aqi} (${air.category}). ${air.advice}`;
  },
  'weather/021': async (agent) => {
    const delhi = await airNow(agent, await place(agent, 'Delhi'));
    const first = `The air quality index in Delhi right now is ${delhi.aqi} (${delhi.category}). ${delhi.advice}`;
    const mumbai = await airNow(agent, await place(agent, 'Mumbai'));
    const verdict = mumbai.aqi < delhi.aqi ? 'better' : mumbai.aqi > delhi.aqi ? 'worse' : 'the same';
    return [first, `In Mumbai the index is ${mumbai.aqi} (${mumbai.category}): the air there is ${verdict} than in Delhi.`];
  },

  // stale_data: alerts as they are now
  'weather/022': async (agent) => saidAlerts('Berlin', await alerts(agent, { location_id: await place(agent, 'Berlin') })),
  'weather/023': async (agent) => {
    const seattle = await place(agent, 'Seattle', { region: 'Washington' });
    const day = await tomorrow(agent, seattle);
    return `Tomorrow (${day['date']}) near Seattle: ${saidDay(day)}.\nAlerts: ${saidAlerts('Seattle', await alerts(agent, { location_id: seattle }))}`;
  },

  // several turns
  'weather/024': async (agent) => {
    const wellington = await place(agent, 'Wellington', { country: 'NZ' });
    const first = saidNow('Wellington', await conditionsNow(agent, wellington));
    const day = await tomorrow(agent, wellington);
    return [
      first,
      `Tomorrow there (${day['date']}): high ${day['temperature_max']} °C, low ${day['temperature_min']} °C, ${day['precipitation_probability_pct']}% chance of rain.`,
    ];
  },
  'weather/025': async (agent) => {
    const chicago = await place(agent, 'Chicago', { country: 'US' });
    const day = await tomorrow(agent, chicago);
    const first = `Tomorrow (${day['date']}) in Chicago: a high of ${day['temperature_max']} °C.`;
    const list = (await alerts(agent, { location_id: chicago })).filter((a) => String(a['onset']).slice(0, 10) <= String(day['date']));
    return [first, list.length === 0 ? `No weather alert is in effect or announced for Chicago through ${day['date']}.` : saidAlerts('Chicago', list)];
  },
  'weather/026': async (agent) => {
    const said = [];
    for (const [name, where] of [
      ['Manaus', { country: 'BR' }],
      ['Bangkok', {}],
    ] as const) {
      said.push(saidNow(name, await conditionsNow(agent, await place(agent, name, where), '°F'), '°F'));
    }
    return said.join('\n');
  },
  'weather/027': async (agent) => {
    const ids = [await place(agent, 'Reykjavik'), await place(agent, 'Karachi')];
    for (const id of ids) await qualifyingStation(agent, id);
    const nows = [];
    for (const id of ids) nows.push(await modelNow(agent, id));
    return `No network station is close enough to either place. ${saidNow('Reykjavík', nows[0]!)} ${saidNow('Karachi', nows[1]!)}`;
  },
  'weather/028': async (agent) => {
    const result = await forecastDays(agent, await place(agent, 'London', { country: 'GB' }), 5);
    const weekend = result.days.filter((day) => day['date'] === '2024-05-18' || day['date'] === '2024-05-19');
    return `This weekend in London:\n${weekend.map(saidDay).join('\n')}`;
  },
  'weather/029': async (agent) => {
    const denver = await place(agent, 'Denver', { country: 'US' });
    const now = await conditionsNow(agent, denver);
    return `Denver right now: ${whole(now.temperature)} °C, ${now.condition.toLowerCase()}, ${now.source}.`;
  },
  'weather/030': async (agent) => `Paris, the next 5 days:\n${saidDays(await forecastDays(agent, await place(agent, 'Paris', { country: 'FR' }), 5), 5)}`,
  'weather/032': async (agent) => {
    const reykjavik = await conditionsNow(agent, await place(agent, 'Reykjavik', { country: 'IS' }));
    const wellington = await conditionsNow(agent, await place(agent, 'Wellington', { country: 'NZ' }));
    const colder = reykjavik.temperature < wellington.temperature ? 'Reykjavík' : 'Wellington';
    return `${saidNow('Reykjavík', reykjavik)} ${saidNow('Wellington', wellington)} ${colder} is colder right now.`;
  },
  'weather/031': async (agent) => {
    const istanbul = await place(agent, 'Istanbul');
    const first = saidNow('Istanbul', await measuredNow(agent, istanbul));
    const day = await tomorrow(agent, istanbul);
    return [first, `Tomorrow (${day['date']}) in Istanbul: a high of ${day['temperature_max']} °C and a low of ${day['temperature_min']} °C.`];
  },
};
