import type { Tables } from '../../lib/table.js';
import { toolError } from '../errors.js';
import { WEATHER_ERRORS } from './errors.js';
import { nearMatches } from '../../lib/text.js';
import { estimateClimate } from './derive.js';
import { round1 } from './present.js';
import type { Site } from './model.js';
import type { Location, Place, Station, WeatherRecords } from './schema.js';

/** The weather database as a tool sees it. */
export type WeatherDb = Tables<WeatherRecords>;

/** How far from a known place a lat/lon may be for the model to answer for that place. */
export const COVERAGE_KM = 100;

const RAD = Math.PI / 180;
const EARTH_RADIUS_KM = 6371.0088;

/** Great-circle distance in km (haversine). */
export function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLon = (lon2 - lon1) * RAD;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Initial bearing from the first point to the second, degrees clockwise from north. */
export function bearingDeg(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const y = Math.sin((lon2 - lon1) * RAD) * Math.cos(lat2 * RAD);
  const x = Math.cos(lat1 * RAD) * Math.sin(lat2 * RAD) - Math.sin(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.cos((lon2 - lon1) * RAD);
  return (Math.atan2(y, x) / RAD + 360) % 360;
}

/** A location with its climate (estimated from its coordinates when the file gave none). */
export const asPlace = (location: Location): Place => (location.climate ? (location as Place) : { ...location, climate: estimateClimate(location) });

export function requirePlace(db: WeatherDb, locationId: string): Place {
  const location = db.locations.get(locationId);
  if (location) return asPlace(location);
  const suggestions = nearMatches(
    locationId,
    [...db.locations.values()].map((l) => l.id),
  );
  const hint = suggestions.length > 0 ? ` Did you mean ${suggestions.map((s) => `'${s}'`).join(', ')}?` : '';
  throw toolError(WEATHER_ERRORS.location_not_found, `Unknown location_id '${locationId}'.${hint} Use geocode_location to find a place's id.`);
}

/** Places by distance from a point, nearest first. */
export function placesByDistance(db: WeatherDb, lat: number, lon: number): { place: Place; distance: number }[] {
  return [...db.locations.values()]
    .map((location) => ({ place: asPlace(location), distance: distanceKm(lat, lon, location.lat, location.lon) }))
    .sort((a, b) => a.distance - b.distance || (a.place.id < b.place.id ? -1 : 1));
}

export interface Located {
  place: Place;
  /** The point asked for, when the call gave lat/lon. */
  resolved: { lat: number; lon: number; distance_km: number } | null;
}

/** The place a call is about: by id, or the nearest place within COVERAGE_KM of lat/lon. */
export function locate(db: WeatherDb, args: { location_id?: string | undefined; lat?: number | undefined; lon?: number | undefined }): Located {
  if (args.location_id !== undefined) return { place: requirePlace(db, args.location_id), resolved: null };
  const lat = args.lat as number;
  const lon = args.lon as number;
  const nearest = placesByDistance(db, lat, lon)[0];
  if (!nearest || nearest.distance > COVERAGE_KM) {
    throw toolError(
      WEATHER_ERRORS.no_coverage,
      `No model coverage at ${lat}, ${lon}: the nearest covered place is more than ${COVERAGE_KM} km away. ` +
        'Use geocode_location or reverse_geocode to find a covered place.',
    );
  }
  return { place: nearest.place, resolved: { lat, lon, distance_km: round1(nearest.distance) } };
}

export function requireStation(db: WeatherDb, stationId: string): Station {
  const station = db.stations.get(stationId) ?? db.stations.get(stationId.toUpperCase());
  if (station) return station;
  throw toolError(WEATHER_ERRORS.station_not_found, `Unknown station_id '${stationId}'. Use list_weather_stations to find stations near a place.`);
}

/** Where the model computes a place's weather. */
export const placeSite = (place: Place): Site => ({
  key: place.id,
  lat: place.lat,
  lon: place.lon,
  elevation_m: place.elevation_m,
  climate: place.climate,
});

/** A station's site: its own position and height, in the air mass of the place it serves. */
export const stationSite = (station: Station, place: Place): Site => ({
  key: place.id,
  lat: station.lat,
  lon: station.lon,
  elevation_m: station.elevation_m,
  climate: place.climate,
});
