import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { toolError } from '../../errors.js';
import { WEATHER_ERRORS } from '../errors.js';
import { asPlace, distanceKm, requireStation, type WeatherDb } from '../db.js';
import { units } from '../fields.js';
import { MeasurementsOut, UnitsOut, converter, localTime, measurements, round1 } from '../present.js';
import { latestReport, observation } from '../stations.js';
import { MINUTE } from '../../../lib/time.js';
import { codesOf } from '../../../lib/error-catalog.js';

export default defineTool({
  name: 'get_station_observation',
  description:
    'The latest observation a station of the observation network reported: measured temperature, dew point, humidity, ' +
    'wind, pressure, visibility, cloud, precipitation in the last hour and present weather, with when it was observed and ' +
    'how old it is. Stations report on their own schedule and reports can be missing: check observed_at and age_minutes. ' +
    'Find station ids with list_weather_stations.',
  input: z.strictObject({
    station_id: z.string().min(1).describe("Station id, e.g. 'KPDX' or 'ST-40721', from list_weather_stations."),
    units,
  }),
  output: z.object({
    provider: z.literal('network'),
    station: z.object({
      station_id: z.string(),
      name: z.string(),
      kind: z.enum(['airport', 'urban', 'suburban', 'rural']),
      lat: z.number(),
      lon: z.number(),
      elevation_m: z.number(),
      location_id: z.string(),
      distance_to_location_km: z.number().describe('From the station to the center of the place it serves.'),
    }),
    observed_at: z.string().describe('Local time of the observation.'),
    age_minutes: z.number().int().describe('Minutes between the observation and now.'),
    units: UnitsOut,
    observation: MeasurementsOut.omit({ uv_index: true }),
  }),
  errors: codesOf(WEATHER_ERRORS, 'station_not_found', 'station_offline'),
  mutates: false,
  example: { station_id: 'KJFK' },
  run({ station_id, units: system }, db: WeatherDb, ctx) {
    const station = requireStation(db, station_id);
    const place = asPlace(db.locations.get(station.location_id)!);
    const now = ctx.now().getTime();
    const at = latestReport(station, now);
    if (at === null) {
      throw toolError(
        WEATHER_ERRORS.station_offline,
        `Station ${station.id} has sent no observation in the last 7 days (it is offline). Use another station near ` +
          `${place.name} (list_weather_stations) or the model's weather_current.`,
      );
    }
    const cv = converter(system);
    const { uv_index: _uv, ...observed } = measurements(observation(station, place, at), cv);
    return {
      provider: 'network' as const,
      station: {
        station_id: station.id,
        name: station.name,
        kind: station.kind,
        lat: station.lat,
        lon: station.lon,
        elevation_m: station.elevation_m,
        location_id: station.location_id,
        distance_to_location_km: round1(distanceKm(station.lat, station.lon, place.lat, place.lon)),
      },
      observed_at: localTime(place, at),
      age_minutes: Math.floor((now - at) / MINUTE),
      units: cv.labels,
      observation: observed,
    };
  },
});
