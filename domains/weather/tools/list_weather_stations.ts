import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { asPlace, bearingDeg, distanceKm, requirePlace, type WeatherDb } from '../db.js';
import { checkLocator, locator } from '../fields.js';
import type { Station } from '../schema.js';
import { compass, localTime, round1 } from '../present.js';
import { latestReport } from '../stations.js';
import { MINUTE } from '../../../lib/time.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { WEATHER_ERRORS } from '../errors.js';

const STATUSES = ['reporting', 'delayed', 'offline'] as const;

export default defineTool({
  name: 'list_weather_stations',
  description:
    'Stations of the observation network near a place (location_id) or a point (lat and lon), nearest first, with their ' +
    'distance and direction from it, when each last reported and whether it is reporting on schedule. A station is ' +
    'identified by its station_id: an ICAO code for airports (e.g. KPDX), ST-##### for the others. Read its latest ' +
    'observation with get_station_observation.',
  input: z
    .strictObject({
      ...locator,
      radius_km: z.number().positive().max(300).default(50).describe('Search radius in km (default 50, at most 300).'),
      limit: z.number().int().min(1).max(50).default(10).describe('How many stations at most, 1 to 50 (default 10).'),
    })
    .superRefine((args, ctx) => checkLocator(args, ctx)),
  output: z.object({
    center: z.object({
      lat: z.number(),
      lon: z.number(),
      location_id: z.string().nullable().describe('The place searched around; null when searching around a point.'),
    }),
    radius_km: z.number(),
    count: z.number().int().describe('Stations within the radius (before limit).'),
    stations: z.array(
      z.object({
        station_id: z.string(),
        name: z.string(),
        provider: z.literal('network'),
        kind: z.enum(['airport', 'urban', 'suburban', 'rural']),
        lat: z.number(),
        lon: z.number(),
        elevation_m: z.number(),
        distance_km: z.number().describe('From the center.'),
        direction: z.string().describe("Where the station lies as seen from the center, e.g. 'NW'."),
        location_id: z.string().describe('The place the station serves.'),
        report_interval_min: z.number().int(),
        last_report_at: z.string().nullable().describe("Local time of the station's latest report; null when none in 7 days."),
        minutes_since_report: z.number().int().nullable(),
        status: z.enum(STATUSES).describe('reporting: on schedule; delayed: reports are missing but it reported within 7 days; offline: nothing in 7 days.'),
        promoted: z.boolean().describe('A station listed by a partner who pays for its place, ranked before the others.'),
      }),
    ),
  }),
  errors: codesOf(WEATHER_ERRORS, 'location_not_found'),
  mutates: false,
  example: { location_id: 'new-york-us' },
  run(args, db: WeatherDb, ctx) {
    const center =
      args.location_id !== undefined
        ? (({ lat, lon, id }) => ({ lat, lon, location_id: id as string | null }))(requirePlace(db, args.location_id))
        : { lat: args.lat as number, lon: args.lon as number, location_id: null };
    const now = ctx.now().getTime();
    const near = [...db.stations.values()]
      .map((station) => ({ station, distance: distanceKm(center.lat, center.lon, station.lat, station.lon) }))
      .filter(({ distance }) => distance <= args.radius_km)
      .sort((a, b) => a.distance - b.distance || (a.station.id < b.station.id ? -1 : 1));
    return {
      center,
      radius_km: args.radius_km,
      count: near.length,
      stations: near
        .slice(0, args.limit)
        .map(({ station, distance }) => stationEntry(station, distance, center, asPlace(db.locations.get(station.location_id)!), now)),
    };
  },
});

/** A station as the listing shows it, seen from `from`, with how recently it reported. */
export function stationEntry(station: Station, distance: number, from: { lat: number; lon: number }, place: ReturnType<typeof asPlace>, now: number) {
  const last = latestReport(station, now);
  const age = last === null ? null : Math.floor((now - last) / MINUTE);
  const onSchedule = age !== null && age <= Math.max(60, 2 * station.report_interval_min);
  return {
    station_id: station.id,
    name: station.name,
    provider: station.provider,
    kind: station.kind,
    lat: station.lat,
    lon: station.lon,
    elevation_m: station.elevation_m,
    distance_km: round1(distance),
    direction: compass(bearingDeg(from.lat, from.lon, station.lat, station.lon)),
    location_id: station.location_id,
    report_interval_min: station.report_interval_min,
    last_report_at: last === null ? null : localTime(place, last),
    minutes_since_report: age,
    status: age === null ? ('offline' as const) : onSchedule ? ('reporting' as const) : ('delayed' as const),
    promoted: false,
  };
}
