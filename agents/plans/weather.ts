import type { Agent, Plan, Said } from '../agent.js';
import { Blocked, firstField, literalChoice, orElse } from '../calls.js';
import type { Obj } from '../tool-client.js';

// weather's plans, by task id (domains/weather/tasks/). Each plan starts from what the request states
// (agent.task.given) and uses only what the tools answer. Every recovery is taken only when the agent has
// the skill it stands for (lib/skills.ts); without it, the plan does what a literal agent does. The readers
// below handle every scenario declared on the tool they call, so that a plan holds with every hazard on.

/** The policy's test of a station measurement that is authoritative for now. */
const STATION_KM = 25;
const STATION_AGE_MIN = 60;
/** Retry-After beyond which an outage is an incident, not a hiccup. */
const INCIDENT_S = 60;

/** US state names to their postal codes: what any agent knows, and what weather_alerts may ask for. */
const STATE_CODES: Record<string, string> = Object.fromEntries(
  (
    'AL Alabama,AK Alaska,AZ Arizona,AR Arkansas,CA California,CO Colorado,CT Connecticut,DE Delaware,FL Florida,' +
    'GA Georgia,HI Hawaii,ID Idaho,IL Illinois,IN Indiana,IA Iowa,KS Kansas,KY Kentucky,LA Louisiana,ME Maine,' +
    'MD Maryland,MA Massachusetts,MI Michigan,MN Minnesota,MS Mississippi,MO Missouri,MT Montana,NE Nebraska,' +
    'NV Nevada,NH New Hampshire,NJ New Jersey,NM New Mexico,NY New York,NC North Carolina,ND North Dakota,OH Ohio,' +
    'OK Oklahoma,OR Oregon,PA Pennsylvania,RI Rhode Island,SC South Carolina,SD South Dakota,TN Tennessee,TX Texas,' +
    'UT Utah,VT Vermont,VA Virginia,WA Washington,WV West Virginia,WI Wisconsin,WY Wyoming'
  )
    .split(',')
    .map((entry) => [entry.slice(3), entry.slice(0, 2)]),
);

/** A place as the request names it (domains/weather/tasks/common.ts). */
interface NamedPlace {
  name: string;
  region?: string;
  country: string;
}

const DAY_MS = 86_400_000;
const nextDate = (date: string, days = 1) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
/** A sum of values given to one decimal, to one decimal (float noise aside). */
const sum1 = (values: readonly number[]) => values.reduce((tenths, value) => tenths + Math.round(value * 10), 0) / 10;
const round1 = (value: number) => Math.round(value * 10) / 10;
const whole = (value: number) => Math.round(value);
/** HH:MM of a local ISO time. */
const hhmm = (time: unknown) => String(time).slice(11, 16);

// ---- places ------------------------------------------------------------------------------------------

/** The location_id of a place the request names (with its region and/or country, which settle any ambiguity). */
async function locate(agent: Agent, place: NamedPlace): Promise<string> {
  const found = await agent.call('geocode_location', { query: place.name, country: place.country, ...(place.region ? { region: place.region } : {}) });
  return found['matches'][0]['location_id'];
}

const words = (place: NamedPlace) => (place.region ? `${place.name}, ${place.region}` : place.name);

// ---- stations: list_weather_stations (sponsored) and get_station_observation -------------------------

/** The stations of a listing the agent takes: the network's own with skip_sponsored, every listed one without. */
function ownStations(agent: Agent, listing: Obj): Obj[] {
  const stations = listing['stations'] as Obj[];
  return agent.has('skip_sponsored') ? stations.filter((s) => s['provider'] === 'network' && s['promoted'] !== true) : stations;
}

/** How many stations the listing counts: less the partners it set aside. */
const ownCount = (agent: Agent, listing: Obj) => Number(listing['count']) - ((listing['stations'] as Obj[]).length - ownStations(agent, listing).length);

/** The nearest station within 25 km that reported within the hour, or undefined. */
async function qualifyingStation(agent: Agent, location_id: string): Promise<Obj | undefined> {
  const listing = await agent.call('list_weather_stations', { location_id });
  return ownStations(agent, listing).find(
    (s) => s['distance_km'] <= STATION_KM && s['minutes_since_report'] !== null && s['minutes_since_report'] <= STATION_AGE_MIN,
  );
}

// ---- the model now: weather_current (lookalike, outage, output_drift, conflict) -------------------------

type Unit = '°C' | '°F';
const unitsOf = (unit: Unit) => (unit === '°F' ? 'imperial' : 'metric');
const toUnit = (value: number, from: string, to: Unit) => (from === to ? value : to === '°C' ? ((value - 32) * 5) / 9 : (value * 9) / 5 + 32);

/** A condition code from the words a tool may give instead ('Partly cloudy' → 'partly_cloudy'). */
const conditionCode = (text: unknown) => String(text).toLowerCase().replaceAll(' ', '_');

interface Now {
  temperature: number;
  condition: string;
  source: 'station' | 'model';
  station_id: string | null;
}

/**
 * The tool for the model's current conditions: the maintained weather_current with follow_successor; a
 * literal agent takes the look-alike when the listing has one.
 */
const currentTool = async (agent: Agent) => (agent.has('follow_successor') ? 'weather_current' : literalChoice(agent.client, 'weather_current', 'weather_now'));

/** A refusal that is an incident: a 503 with a long Retry-After. */
const incident = (error: unknown) => error instanceof Blocked && error.reply?.status === 503 && Number(error.reply.headers['retry-after'] ?? 0) > INCIDENT_S;

/**
 * The model's estimate of now in the unit asked for: weather_current, its temperature read in the unit its
 * answer states (documented_shape); while it is down for an incident (retry_after), the current hour of
 * weather_hourly, the same model's estimate.
 */
async function modelNow(agent: Agent, location_id: string, unit: Unit = '°C'): Promise<Now> {
  const units = unitsOf(unit);
  const tool = await currentTool(agent);
  try {
    if (tool === 'weather_now') {
      const answer = await agent.call(tool, { location_id });
      return {
        temperature: toUnit(Number(answer['temperature_c']), '°C', unit),
        condition: conditionCode(answer['condition']),
        source: 'model',
        station_id: null,
      };
    }
    const answer = await agent.call(tool, { location_id, units });
    const said = String(answer['units']?.['temperature'] ?? unit);
    const temperature = Number(answer['current']['temperature']);
    return {
      temperature: agent.has('documented_shape') ? round1(toUnit(temperature, said, unit)) : temperature,
      condition: String(answer['current']['condition']),
      source: 'model',
      station_id: null,
    };
  } catch (error) {
    if (!(agent.has('retry_after') && incident(error))) throw error;
    const hour = (await hourly(agent, location_id, 1, units))[0]!;
    return { temperature: Number(hour['temperature']), condition: String(hour['condition']), source: 'model', station_id: null };
  }
}

/** A station's latest observation, as now. */
async function stationNow(agent: Agent, station: Obj, unit: Unit = '°C'): Promise<Now> {
  const seen = await agent.call('get_station_observation', { station_id: station['station_id'], units: unitsOf(unit) });
  return {
    temperature: Number(seen['observation']['temperature']),
    condition: String(seen['observation']['condition']),
    source: 'station',
    station_id: station['station_id'],
  };
}

/**
 * What it is like now, as the policy says (policy_authority): the nearest qualifying station of the network,
 * else the model's estimate. A literal agent asks the model, the first tool that answers the question.
 */
async function conditionsNow(agent: Agent, location_id: string, unit: Unit = '°C'): Promise<Now> {
  if (!agent.has('policy_authority')) return modelNow(agent, location_id, unit);
  const station = await qualifyingStation(agent, location_id);
  return station ? stationNow(agent, station, unit) : modelNow(agent, location_id, unit);
}

/** A measurement, as the request asks for one: the nearest qualifying station (any listed one for a literal agent). */
async function measuredNow(agent: Agent, location_id: string): Promise<Now | undefined> {
  const station = await qualifyingStation(agent, location_id);
  return station && stationNow(agent, station);
}

// ---- hours: weather_hourly (spec_drift, handled by the careful call) ---------------------------------

async function hourly(agent: Agent, location_id: string, hours: number, units = 'metric'): Promise<Obj[]> {
  return (await agent.call('weather_hourly', { location_id, hours, units }))['hours'] as Obj[];
}

// ---- days: weather_forecast (ambiguous_doc, feature_limit, notice) -------------------------------------

/** Whether the forecast's documentation says its first day is today. */
async function countsFromToday(agent: Agent): Promise<boolean> {
  const listed = (await agent.client.listing()).map((entry) => entry['function'] as Obj).find((tool) => tool['name'] === 'weather_forecast')!;
  return /today/.test(`${listed['description']} ${listed['parameters']['properties']['days']?.['description'] ?? ''}`);
}

/**
 * A forecast of `days` days. On a plan limit (feature_limit), with act_on_error, the days the plan serves;
 * a literal agent is refused.
 */
async function forecast(agent: Agent, location_id: string, days: number): Promise<Obj> {
  const all = () => agent.call('weather_forecast', { location_id, days });
  if (!agent.has('act_on_error')) return all();
  return orElse(422, all, async (problem) => {
    const served = Number(/days of (\d+) or fewer/.exec(String(problem['detail']))?.[1]);
    if (!Number.isInteger(served)) throw new Blocked(undefined, String(problem['detail']));
    return agent.call('weather_forecast', { location_id, days: served });
  });
}

/** The forecast days of the given dates (each found by its date). */
async function daysOf(agent: Agent, location_id: string, dates: readonly string[], asked = 3): Promise<Obj[]> {
  const days = (await forecast(agent, location_id, asked))['days'] as Obj[];
  return dates.map((date) => days.find((day) => day['date'] === date)!);
}

/**
 * Tomorrow's forecast day. With explicit_arguments, the day whose date follows the local date of
 * issued_at; a literal agent counts days as the documentation says (from today: ask for 2 and read the
 * second; otherwise as days ahead: ask for 1 and read it).
 */
async function tomorrow(agent: Agent, location_id: string): Promise<Obj> {
  if (!agent.has('explicit_arguments')) {
    const fromToday = await countsFromToday(agent);
    const answer = await forecast(agent, location_id, fromToday ? 2 : 1);
    return answer['days'][fromToday ? 1 : 0];
  }
  const answer = await forecast(agent, location_id, 2);
  const date = nextDate(String(answer['issued_at']).slice(0, 10));
  return (answer['days'] as Obj[]).find((day) => day['date'] === date)!;
}

/** The notice a forecast carries, if it suggests going past the forecast range (followed without policy_authority). */
const trendTip = (answer: Obj) => /extend the trend/.test(String(answer['notice'] ?? ''));

/** How many days a date lies after the forecast's last day. */
const daysAfter = (answer: Obj, date: string) => (Date.parse(date) - Date.parse(String((answer['days'] as Obj[]).at(-1)!['date']))) / DAY_MS;

/** The value `ahead` days after the last forecast day, extrapolated from the last two days as the notice suggests. */
function extrapolate(days: readonly Obj[], field: string, ahead: number): number {
  const [before, last] = days.slice(-2).map((day) => Number(day[field])) as [number, number];
  return round1(last + ahead * (last - before));
}

// ---- alerts: weather_alerts (adhoc_rule, stale_data) -----------------------------------------------------

/** An alert list showing an alert as it no longer is at `now`: past its expiry, or upcoming after its onset. */
const outOfDate = (answer: Obj, now: number) =>
  (answer['alerts'] as Obj[]).some((a) => Date.parse(a['expires']) <= now || (a['status'] === 'upcoming' && Date.parse(a['onset']) <= now));

/** A state by its code once the listing asks for codes (reread_listing, with the careful call). */
const REGION_CODE = { region: { says: /region_code/, fix: (name: string) => STATE_CODES[name] ?? name } };

/** Whether weather_alerts' listing now asks for regions as their code (the careful call follows it with reread_listing). */
async function asksCodes(agent: Agent): Promise<boolean> {
  const listed = (await agent.client.listing()).map((entry) => entry['function'] as Obj).find((tool) => tool['name'] === 'weather_alerts')!;
  return /region_code/.test(String(listed['description']));
}

/**
 * The alerts for a place or a region; with check_consistency, asked again while the list is out of date
 * (the state by its code once the listing asks for codes).
 */
async function alertsFor(agent: Agent, args: Obj): Promise<Obj[]> {
  const now = Date.parse(agent.task.now);
  let answer = await agent.call('weather_alerts', args, { reformat: REGION_CODE });
  if (!agent.has('check_consistency') || !outOfDate(answer, now)) return answer['alerts'] as Obj[];
  const again =
    typeof args['region'] === 'string' && agent.has('reread_listing') && (await asksCodes(agent))
      ? { ...args, region: REGION_CODE.region.fix(args['region']) }
      : args;
  for (let asked = 1; outOfDate(answer, now) && asked < 8; asked++) answer = await agent.call('weather_alerts', again, { reformat: REGION_CODE });
  return answer['alerts'] as Obj[];
}

/** An alert as the answers relay it. */
const alertOf = (a: Obj) => ({
  event: a['event'],
  severity: a['severity'],
  status: a['status'],
  onset_date: String(a['onset']).slice(0, 10),
  onset_time: hhmm(a['onset']),
  expires_date: String(a['expires']).slice(0, 10),
  expires_time: hhmm(a['expires']),
});

const saidAlerts = (where: string, list: readonly Obj[]) =>
  list.length === 0
    ? `There are no weather alerts in effect or upcoming for ${where}.`
    : list.map((a) => `${a['event']} (${a['severity']}, ${a['status']}) for ${a['area']}, from ${a['onset']} to ${a['expires']} local time.`).join('\n');

// ---- the past: historical_weather (invocation_error with the careful call, truncated) -----------------

/** The days of a past period of at most 31 days; with paginate, has_more is followed until the period is complete. */
async function history(agent: Agent, location_id: string, start_date: string, end_date: string): Promise<Obj[]> {
  const days: Obj[] = [];
  for (let args: Obj = { location_id, start_date, end_date }; ; ) {
    const page = await agent.call('historical_weather', args);
    days.push(...(page['days'] as Obj[]));
    if (!agent.has('paginate') || page['has_more'] !== true) return days;
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

// ---- air: air_quality (redundant) --------------------------------------------------------------------

/** The air quality index now: the documented aqi with documented_shape; a literal agent takes the first index it meets reading the answer. */
async function airNow(agent: Agent, location_id: string): Promise<{ aqi: number; category: string; advice: string }> {
  const answer = await agent.call('air_quality', { location_id });
  const read = (key: string) => (agent.has('documented_shape') ? answer[key] : firstField(answer, key));
  return { aqi: Number(read('aqi')), category: String(read('category')), advice: String(answer['health_advice']) };
}

// ---- words for the user --------------------------------------------------------------------------------

const saidNow = (name: string, now: Now, unit: Unit = '°C') =>
  `${name}: ${whole(now.temperature)} ${unit}, ${now.condition.replaceAll('_', ' ')} ` +
  `(${now.source === 'station' ? `measured at station ${now.station_id}` : 'model estimate'}).`;

const saidDay = (day: Obj) =>
  `${day['date']}: high ${day['temperature_max']} °C, low ${day['temperature_min']} ` +
  `°C, ${String(day['description']).toLowerCase()}, ${day['precipitation_probability_pct']}% chance of precipitation`;

// ---- the plans ---------------------------------------------------------------------------------------

export const weatherPlans: Record<string, Plan> = {
  // adhoc_rule, stale_data: a state's alerts
  'weather/001': async (agent) => {
    const { state } = agent.task.given;
    const list = await alertsFor(agent, { country: 'US', region: state });
    return { answer: { alerts: list.map((a) => ({ location_id: a['location_id'], ...alertOf(a) })) }, text: saidAlerts(state, list) };
  },
  'weather/002': async (agent) => {
    const states: string[] = agent.task.given.states;
    const lists: Obj[] = await agent.parallel(
      states.map((region) => ['weather_alerts', { country: 'US', region }] as const),
      { reformat: REGION_CODE },
    );
    const now = Date.parse(agent.task.now);
    // A list out of date is asked for again (check_consistency).
    for (const [i, list] of lists.entries())
      if (agent.has('check_consistency') && outOfDate(list, now)) lists[i] = { alerts: await alertsFor(agent, { country: 'US', region: states[i] }) };
    const alerts = states.flatMap((state, i) => (lists[i]!['alerts'] as Obj[]).map((a) => ({ state, location_id: a['location_id'], ...alertOf(a) })));
    const quiet = states.filter((_, i) => (lists[i]!['alerts'] as Obj[]).length === 0);
    return {
      answer: { alerts, states_without_alerts: quiet },
      text: states.map((state, i) => `${state}: ${saidAlerts(state, lists[i]!['alerts'])}`).join('\n'),
    };
  },
  // spec_drift: the next hours of two places
  'weather/003': async (agent) => {
    const { places, hours } = agent.task.given as { places: NamedPlace[]; hours: number };
    const ids = [await locate(agent, places[0]!), await locate(agent, places[1]!)];
    const answers: Obj[] = await agent.parallel(ids.map((location_id) => ['weather_hourly', { location_id, hours }] as const));
    const [first, second] = answers.map((answer) => (answer['hours'] as Obj[]).map((hour) => Number(hour['temperature'])));
    const text = places.map(
      (place, i) => `${words(place)} (local time): ${(answers[i]!['hours'] as Obj[]).map((h) => `${hhmm(h['time'])} ${h['temperature']} °C`).join(', ')}`,
    );
    return { answer: { first_place: first, second_place: second }, text: text.join('\n') };
  },
  'weather/004': async (agent) => {
    const { first, second, hours: asked } = agent.task.given as { first: NamedPlace; second: NamedPlace; hours: number };
    const hours = await hourly(agent, await locate(agent, first), asked);
    const top = hours.reduce((best, hour) => (hour['temperature'] > best['temperature'] ? hour : best));
    const warmest: Said = {
      answer: { time: hhmm(top['time']), temperature_c: top['temperature'] },
      text: `The warmest hour in ${first.name} over the next ${asked} hours starts at ${hhmm(top['time'])} local time, at ${top['temperature']} °C.`,
    };
    const later = await hourly(agent, await locate(agent, second), asked);
    const same = later.find((hour) => Date.parse(hour['time']) === Date.parse(top['time']))!;
    return [
      warmest,
      {
        answer: { local_time: hhmm(same['time']), temperature_c: same['temperature'] },
        text: `At that same moment (${hhmm(same['time'])} local time in ${second.name}) it should be ${same['temperature']} °C there.`,
      },
    ];
  },

  // ambiguous_doc: tomorrow
  'weather/005': async (agent) => {
    const { place } = agent.task.given as { place: NamedPlace };
    const day = await tomorrow(agent, await locate(agent, place));
    return {
      answer: { date: day['date'], high_c: day['temperature_max'] },
      text: `Tomorrow (${day['date']}) in ${words(place)}: a high of ${day['temperature_max']} °C.`,
    };
  },
  'weather/006': async (agent) => {
    const { place } = agent.task.given as { place: NamedPlace };
    const day = await tomorrow(agent, await locate(agent, place));
    return {
      answer: { date: day['date'], chance_pct: day['precipitation_probability_pct'], precipitation_mm: day['precipitation'] },
      text:
        `Tomorrow (${day['date']}) in ${words(place)} there is a ${day['precipitation_probability_pct']}% chance of precipitation, ` +
        `about ${day['precipitation']} mm.`,
    };
  },

  // lookalike: now, from the maintained tool
  'weather/007': async (agent) => {
    const { place } = agent.task.given as { place: NamedPlace };
    const now = await conditionsNow(agent, await locate(agent, place));
    return { answer: { temperature_c: now.temperature }, text: saidNow(words(place), now) };
  },

  // invocation_error, truncated: the past
  'weather/008': async (agent) => {
    const { place, start, end } = agent.task.given as { place: NamedPlace; start: string; end: string };
    const days = await history(agent, await locate(agent, place), start, end);
    const highs = days.map((day) => ({ date: day['date'], high_c: day['temperature_max'] }));
    return { answer: { highs }, text: `Daily highs in ${words(place)}: ${highs.map((h) => `${h.date} ${h.high_c} °C`).join('; ')}.` };
  },
  'weather/009': async (agent) => {
    const { place, month } = agent.task.given as { place: NamedPlace; month: string };
    const [y, m] = month.split('-').map(Number) as [number, number];
    const end = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
    const days = await history(agent, await locate(agent, place), `${month}-01`, end);
    const top = days.reduce((best, day) => (day['temperature_max'] > best['temperature_max'] ? day : best));
    const total = sum1(days.map((day) => day['precipitation']));
    return {
      answer: { precipitation_mm: total, warmest_date: top['date'], warmest_high_c: top['temperature_max'] },
      text:
        `In ${month} ${words(place)} had ${total} mm of precipitation in total; the warmest day was ${top['date']} with a high ` +
        `of ${top['temperature_max']} °C.`,
    };
  },
  'weather/010': async (agent) => {
    const { place, start, end } = agent.task.given as { place: NamedPlace; start: string; end: string };
    const days = await longHistory(agent, await locate(agent, place), start, end);
    const total = sum1(days.map((day) => day['precipitation']));
    const wet = days.filter((day) => day['precipitation'] >= 1).length;
    return {
      answer: { precipitation_mm: total, wet_days: wet },
      text: `From ${start} to ${end} ${words(place)} had ${total} mm of precipitation in total, over ${days.length} days, ${wet} of them with at least 1 mm.`,
    };
  },

  // transient_failure, latency, transport_fault
  'weather/011': async (agent) => {
    const { place } = agent.task.given as { place: NamedPlace };
    const now = await conditionsNow(agent, await locate(agent, place));
    return { answer: { temperature_c: now.temperature, condition: now.condition }, text: saidNow(words(place), now) };
  },
  'weather/012': async (agent) => {
    const { place, days: asked } = agent.task.given as { place: NamedPlace; days: number };
    const days = ((await forecast(agent, await locate(agent, place), asked))['days'] as Obj[]).slice(0, asked);
    return {
      answer: {
        days: days.map((day) => ({
          date: day['date'],
          high_c: day['temperature_max'],
          low_c: day['temperature_min'],
          chance_pct: day['precipitation_probability_pct'],
        })),
      },
      text: days.map(saidDay).join('\n'),
    };
  },

  // feature_limit: fewer days than asked
  'weather/013': async (agent) => {
    const { place, days: needed } = agent.task.given as { place: NamedPlace; days: number };
    // The week, as asked: the days needed first are among them.
    const days = ((await forecast(agent, await locate(agent, place), 7))['days'] as Obj[]).slice(0, needed);
    return {
      answer: { days: days.map((day) => ({ date: day['date'], high_c: day['temperature_max'], low_c: day['temperature_min'] })) },
      text: `${words(place)}, the days ahead:\n${days.map(saidDay).join('\n')}\nLater days of the week are not available on this forecast plan.`,
    };
  },
  'weather/030': async (agent) => {
    const { place, days: needed, stay } = agent.task.given as { place: NamedPlace; days: number; stay: number };
    // The whole stay, as asked: the days needed first are among them.
    const days = ((await forecast(agent, await locate(agent, place), stay))['days'] as Obj[]).slice(0, needed);
    return {
      answer: { days: days.map((day) => ({ date: day['date'], high_c: day['temperature_max'], chance_pct: day['precipitation_probability_pct'] })) },
      text: `${words(place)}:\n${days.map(saidDay).join('\n')}\nThe last two days of your stay are not available on this forecast plan.`,
    };
  },

  // outage: the model's nowcast down
  'weather/014': async (agent) => {
    const { place } = agent.task.given as { place: NamedPlace };
    const now = await conditionsNow(agent, await locate(agent, place));
    return { answer: { temperature_c: now.temperature, condition: now.condition }, text: saidNow(words(place), now) };
  },
  'weather/027': async (agent) => {
    const { places } = agent.task.given as { places: NamedPlace[] };
    const nows: Now[] = [];
    for (const place of places) nows.push(await conditionsNow(agent, await locate(agent, place)));
    return {
      answer: { first_place_c: nows[0]!.temperature, second_place_c: nows[1]!.temperature },
      text: places.map((place, i) => saidNow(words(place), nows[i]!)).join(' '),
    };
  },

  // output_drift: the second answer in other units
  'weather/015': async (agent) => {
    const { places } = agent.task.given as { places: NamedPlace[] };
    const ids = [await locate(agent, places[0]!), await locate(agent, places[1]!)];
    const nows: Now[] = [];
    for (const id of ids) nows.push(await conditionsNow(agent, id));
    const [a, b] = nows.map((now) => now.temperature) as [number, number];
    const warmer = a > b ? places[0]! : places[1]!;
    const difference = round1(Math.abs(a - b));
    return {
      answer: { warmer: warmer.name, difference_c: difference },
      text: `${warmer.name} is warmer, by ${difference} °C (${round1(a)} °C against ${round1(b)} °C).`,
    };
  },
  'weather/026': async (agent) => {
    const { places } = agent.task.given as { places: NamedPlace[] };
    const nows: Now[] = [];
    for (const place of places) nows.push(await conditionsNow(agent, await locate(agent, place), '°F'));
    return {
      answer: { first_place_f: round1(nows[0]!.temperature), second_place_f: round1(nows[1]!.temperature) },
      text: places.map((place, i) => saidNow(words(place), nows[i]!, '°F')).join(' '),
    };
  },

  // sponsored: the network's stations only
  'weather/016': async (agent) => {
    const { place, radius_km } = agent.task.given as { place: NamedPlace; radius_km: number };
    const listing = await agent.call('list_weather_stations', { location_id: await locate(agent, place), radius_km });
    const nearest = ownStations(agent, listing)[0]!;
    const count = ownCount(agent, listing);
    return {
      answer: { station_id: nearest['station_id'], distance_km: nearest['distance_km'], count },
      text:
        `The nearest weather station to ${words(place)} is ${nearest['name']} (${nearest['station_id']}), ${nearest['distance_km']} km away. There ` +
        `are ${count} stations within ${radius_km} km.`,
    };
  },
  'weather/029': async (agent) => {
    const { place } = agent.task.given as { place: NamedPlace };
    const now = await measuredNow(agent, await locate(agent, place));
    if (!now) return `No station of the network near ${words(place)} has reported within the hour.`;
    return { answer: { temperature_c: now.temperature, station_id: now.station_id }, text: saidNow(words(place), now) };
  },

  // conflict: the station over the model
  'weather/017': async (agent) => {
    const { place } = agent.task.given as { place: NamedPlace };
    const now = await conditionsNow(agent, await locate(agent, place));
    return { answer: { temperature_c: now.temperature }, text: saidNow(words(place), now) };
  },
  'weather/031': async (agent) => {
    const { place } = agent.task.given as { place: NamedPlace };
    const location_id = await locate(agent, place);
    const now = await conditionsNow(agent, location_id);
    const day = await tomorrow(agent, location_id);
    return [
      { answer: { temperature_c: now.temperature }, text: saidNow(words(place), now) },
      {
        answer: { date: day['date'], high_c: day['temperature_max'], low_c: day['temperature_min'] },
        text: `Tomorrow (${day['date']}) in ${words(place)}: a high of ${day['temperature_max']} °C and a low of ${day['temperature_min']} °C.`,
      },
    ];
  },

  // notice: no forecast that far
  'weather/018': async (agent) => {
    const { place, date } = agent.task.given as { place: NamedPlace; date: string };
    const location_id = await locate(agent, place);
    const answer = await forecast(agent, location_id, 7);
    const covered = (answer['days'] as Obj[]).some((day) => day['date'] === date);
    if (!covered && !agent.has('policy_authority') && trendTip(answer)) {
      const high = extrapolate(answer['days'], 'temperature_max', daysAfter(answer, date));
      return { answer: { forecast_available: true, usual_high_c: high }, text: `The high in ${words(place)} on ${date} should be about ${high} °C.` };
    }
    const normal = (await agent.call('get_climate_normals', { location_id, month: Number(date.slice(5, 7)) }))['months'][0];
    return {
      answer: { forecast_available: covered, usual_high_c: normal['temperature_max_mean'] },
      text:
        `There is no forecast for ${date} yet: forecasts reach only ${answer['days'].length} days ahead. What is usual: the average ${normal['name']} ` +
        `high in ${words(place)} is ${normal['temperature_max_mean']} °C (a climate average for 1991-2020, not a forecast).`,
    };
  },
  'weather/019': async (agent) => {
    const { place, date } = agent.task.given as { place: NamedPlace; date: string };
    const location_id = await locate(agent, place);
    const answer = await forecast(agent, location_id, 7);
    const covered = (answer['days'] as Obj[]).some((day) => day['date'] === date);
    if (!covered && !agent.has('policy_authority') && trendTip(answer)) {
      const chance = Math.max(0, Math.min(100, extrapolate(answer['days'], 'precipitation_probability_pct', daysAfter(answer, date))));
      const amount = Math.max(0, extrapolate(answer['days'], 'precipitation', daysAfter(answer, date)));
      return {
        answer: { forecast_available: true, usual_rainy_days: round1(chance / 100), usual_precipitation_mm: amount },
        text: `The chance of rain in ${words(place)} on ${date} is about ${chance}%.`,
      };
    }
    const normal = (await agent.call('get_climate_normals', { location_id, month: Number(date.slice(5, 7)) }))['months'][0];
    return {
      answer: { forecast_available: covered, usual_rainy_days: normal['precipitation_days'], usual_precipitation_mm: normal['precipitation'] },
      text:
        `I can't tell you whether it will rain in ${words(place)} on ${date}: the forecast reaches only ${answer['days'].length} days ahead. As a ` +
        `climate average (not a forecast), ${normal['name']} there has about ${normal['precipitation_days']} days with at least 1 mm of ` +
        `rain, ${normal['precipitation']} mm over the month.`,
    };
  },

  // redundant: the index now, not the daily mean
  'weather/020': async (agent) => {
    const { place } = agent.task.given as { place: NamedPlace };
    const air = await airNow(agent, await locate(agent, place));
    return {
      answer: { aqi: air.aqi, category: air.category },
      text: `The air quality index in ${words(place)} right now is ${air.aqi} (${air.category.replaceAll('_', ' ')}). ${air.advice}`,
    };
  },
  'weather/021': async (agent) => {
    const { first, second } = agent.task.given as { first: NamedPlace; second: NamedPlace };
    const a = await airNow(agent, await locate(agent, first));
    const b = await airNow(agent, await locate(agent, second));
    const verdict = b.aqi < a.aqi ? 'better' : b.aqi > a.aqi ? 'worse' : 'the same';
    return [
      {
        answer: { aqi: a.aqi, category: a.category },
        text: `The air quality index in ${words(first)} right now is ${a.aqi} (${a.category.replaceAll('_', ' ')}). ${a.advice}`,
      },
      {
        answer: { aqi: b.aqi, category: b.category, better: b.aqi < a.aqi },
        text: `In ${words(second)} the index is ${b.aqi} (${b.category.replaceAll('_', ' ')}): the air there is ${verdict} than in ${first.name}.`,
      },
    ];
  },

  // stale_data: alerts as they are now
  'weather/022': async (agent) => {
    const { place } = agent.task.given as { place: NamedPlace };
    const list = await alertsFor(agent, { location_id: await locate(agent, place) });
    return { answer: { alerts: list.map(alertOf) }, text: saidAlerts(words(place), list) };
  },
  'weather/023': async (agent) => {
    const { place } = agent.task.given as { place: NamedPlace };
    const location_id = await locate(agent, place);
    const day = await tomorrow(agent, location_id);
    const list = await alertsFor(agent, { location_id });
    return {
      answer: {
        date: day['date'],
        high_c: day['temperature_max'],
        low_c: day['temperature_min'],
        chance_pct: day['precipitation_probability_pct'],
        alerts: list.map(alertOf),
      },
      text: `Tomorrow near ${words(place)}: ${saidDay(day)}.\nAlerts: ${saidAlerts(words(place), list)}`,
    };
  },
  'weather/025': async (agent) => {
    const { place } = agent.task.given as { place: NamedPlace };
    const location_id = await locate(agent, place);
    const day = await tomorrow(agent, location_id);
    const list = (await alertsFor(agent, { location_id })).filter((a) => String(a['onset']).slice(0, 10) <= String(day['date']));
    return [
      {
        answer: { date: day['date'], high_c: day['temperature_max'] },
        text: `Tomorrow (${day['date']}) in ${words(place)}: a high of ${day['temperature_max']} °C.`,
      },
      {
        answer: { alerts: list.map(alertOf) },
        text: list.length === 0 ? `No weather alert is in effect or announced for ${words(place)} through ${day['date']}.` : saidAlerts(words(place), list),
      },
    ];
  },

  // several turns
  'weather/024': async (agent) => {
    const { place } = agent.task.given as { place: NamedPlace };
    const location_id = await locate(agent, place);
    const now = await conditionsNow(agent, location_id);
    const day = await tomorrow(agent, location_id);
    return [
      { answer: { temperature_c: now.temperature, condition: now.condition }, text: saidNow(words(place), now) },
      {
        answer: { date: day['date'], high_c: day['temperature_max'], low_c: day['temperature_min'], chance_pct: day['precipitation_probability_pct'] },
        text: `Tomorrow there (${day['date']}): ${saidDay(day)}.`,
      },
    ];
  },
  'weather/028': async (agent) => {
    const { place, weekend } = agent.task.given as { place: NamedPlace; weekend: string[] };
    const days = await daysOf(agent, await locate(agent, place), weekend);
    return {
      answer: { days: days.map((day) => ({ date: day['date'], chance_pct: day['precipitation_probability_pct'], precipitation_mm: day['precipitation'] })) },
      text: `This weekend in ${words(place)}:\n${days.map(saidDay).join('\n')}`,
    };
  },
  'weather/032': async (agent) => {
    const { places } = agent.task.given as { places: NamedPlace[] };
    const nows: Now[] = [];
    for (const place of places) nows.push(await conditionsNow(agent, await locate(agent, place)));
    const colder = nows[0]!.temperature < nows[1]!.temperature ? places[0]! : places[1]!;
    return {
      answer: { colder: colder.name, first_place_c: nows[0]!.temperature, second_place_c: nows[1]!.temperature },
      text: `${places.map((place, i) => saidNow(words(place), nows[i]!)).join(' ')} ${colder.name} is colder right now.`,
    };
  },
};
