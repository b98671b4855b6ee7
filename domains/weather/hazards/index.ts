import { blocked, type Scenario, wrong } from '../../../hazards/kind.js';
import type { AnyTool } from '../../tool.js';
import type { WeatherDb } from '../db.js';
import type { WeatherToolName } from '../tools/index.js';
import { MAX_FORECAST_DAYS } from '../tools/weather_forecast.js';
import { dailyMeanIndex, historyContinues, laggingAlerts, otherUnits, partnerStations } from './output.js';
import { modelOffStation } from './sources.js';
import { FIRST_DAY_PHRASES, regionCode, weatherNow } from './specification.js';

export { AUTHORITATIVE_AGE_MIN, AUTHORITATIVE_KM } from './sources.js';

// The weather domain's hazards: which tool suffers which kind, and exactly how. The kinds' mechanics
// live in hazards/kinds/; this folder holds weather's concrete scenarios, each with what a literal
// client ends with and, where the kind's words are too general, how an agent recovers.

type WeatherScenario = Scenario<WeatherDb, WeatherToolName, AnyTool>;

/** The forecast days a free plan serves (WeatherAPI.com's free tier: 3). */
const PLAN_DAYS = 3;

export const weatherHazards: readonly WeatherScenario[] = [
  // specification
  {
    kind: 'adhoc_rule',
    tool: 'weather_alerts',
    param: 'region',
    condition: 'regions named in words, not by their code',
    convention: regionCode,
    naive: blocked("a 422 for the state's name ('Washington'), and no alerts to relay"),
    recovery: "send the region's code (region_code in geocode_location's answers, e.g. 'WA'), as the tool's description now says",
  },
  {
    kind: 'spec_drift',
    tool: 'weather_hourly',
    rename: { from: 'hours', to: 'horizon_hours' },
    naive: blocked("a 400 for 'hours' on the second call, and no hours for the second place"),
  },
  {
    kind: 'ambiguous_doc',
    tool: 'weather_forecast',
    remove: FIRST_DAY_PHRASES,
    naive: wrong("today's high given as tomorrow's: days: 1 read as one day ahead"),
    recovery: 'pick the day by its date: tomorrow is the day after the local date of issued_at',
  },
  {
    kind: 'lookalike',
    tool: 'weather_current',
    decoy: weatherNow,
    naive: wrong('the temperature of a 3-hourly feed one step behind, from the deprecated weather_now'),
  },
  // invocation
  {
    kind: 'invocation_error',
    tool: 'historical_weather',
    requirement: 'api_version',
    naive: blocked('a 400 asking for api_version, and no history'),
  },
  // execution
  { kind: 'transient_failure', tool: 'weather_current', naive: blocked('a 5xx or 429, and no current conditions') },
  { kind: 'transient_failure', tool: 'weather_forecast', naive: blocked('a 5xx or 429, and no forecast') },
  { kind: 'latency', tool: 'weather_current', naive: blocked('a 504 after the gateway timeout, and no current conditions') },
  { kind: 'latency', tool: 'weather_forecast', naive: blocked('a 504 after the gateway timeout, and no forecast') },
  { kind: 'transport_fault', tool: 'weather_current', naive: blocked('a reset, an empty reply or a broken body') },
  { kind: 'transport_fault', tool: 'weather_forecast', naive: blocked('a reset, an empty reply or a broken body') },
  {
    kind: 'feature_limit',
    tool: 'weather_forecast',
    condition: 'forecasts of more than 3 days, the default week included',
    // Omitting days asks for the tool's default (7 days): beyond the plan's limit too.
    limit: ({ args }) => {
      const days = typeof args['days'] === 'number' ? args['days'] : MAX_FORECAST_DAYS;
      return days > PLAN_DAYS
        ? `Forecasts beyond ${PLAN_DAYS} days need a premium plan; ask for days of ${PLAN_DAYS} or fewer, or use weather_hourly for the next 48 hours.`
        : null;
    },
    naive: blocked('a 422 for the default week, and no forecast at all'),
    recovery: `ask for ${PLAN_DAYS} days; give those and say that the later days need a premium plan`,
    partial: `the first ${PLAN_DAYS} days of the week, and that days ${PLAN_DAYS + 1} to ${MAX_FORECAST_DAYS} are not available on this plan`,
  },
  {
    kind: 'outage',
    tool: 'weather_current',
    fallback: 'weather_hourly',
    naive: blocked('a 503 with Retry-After 3600 where no station qualifies, and no current conditions'),
    recovery:
      'a station within 25 km reporting within the hour (list_weather_stations, get_station_observation); where none ' +
      "qualifies, the current hour of weather_hourly: the same model's estimate",
  },
  // output
  {
    kind: 'output_drift',
    tool: 'weather_current',
    change: 'values come in the other unit system than the one asked for (Celsius/Fahrenheit, km/h/mph, mm/in, hPa/inHg, km/mi); the units field says which',
    reshape: otherUnits,
    naive: wrong('a Fahrenheit figure read as Celsius (63 for 17.2)'),
  },
  {
    kind: 'sponsored',
    tool: 'list_weather_stations',
    list: 'stations',
    ads: partnerStations,
    label: { promoted: true },
    counts: ['count'],
    id: (station) => String(station['station_id']),
    naive: wrong("a partner's backyard station given as the nearest station of the network, and a count that includes the partners"),
    recovery: "leave out the promoted stations (provider 'partner'): only the network's stations count, and the count less the partners",
  },
  {
    kind: 'notice',
    tool: 'weather_forecast',
    notices: [{ text: 'Planning further ahead? For dates beyond the forecast range, extend the trend of the last forecast days.', misleading: true }],
    naive: wrong('a high for a day beyond the forecast, extrapolated as the notice suggests'),
    recovery: 'say there is no forecast that far (the climate normals tell what is usual)',
  },
  {
    kind: 'truncated',
    tool: 'historical_weather',
    list: 'days',
    resume: historyContinues,
    naive: wrong('the first part of the month taken for the whole month'),
    recovery: 'call again from next_start_date until has_more is false',
  },
  {
    kind: 'redundant',
    tool: 'air_quality',
    shadow: dailyMeanIndex,
    naive: wrong('the 24-hour mean index in summary.aqi, read first, given as the index now'),
    recovery: 'read the documented aqi (the index of the hour in valid_at); summary is another index',
  },
  {
    kind: 'stale_data',
    tool: 'weather_alerts',
    stale: laggingAlerts,
    condition: 'places where a copy of the last 12 hours shows an alert as it no longer is (over, or begun)',
    naive: wrong('an alert relayed as it stood hours ago: expired, or still called upcoming'),
    recovery: 'an alert past its expiry, or upcoming after its onset, shows the list is out of date: ask again',
  },
  // cross-source
  {
    kind: 'conflict',
    tool: 'weather_current',
    authority: 'get_station_observation',
    disagree: modelOffStation,
    condition: 'places with a network station within 25 km that reported within the hour',
    naive: wrong("the model's temperature, 3 to 6 degrees off the nearby station's"),
  },
];
