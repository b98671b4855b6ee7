import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { toolError } from '../../errors.js';
import { WEATHER_ERRORS } from '../errors.js';
import { bearingDeg, placesByDistance, type WeatherDb } from '../db.js';
import { lat, lon } from '../fields.js';
import { PlaceOut, compass, placeOut, round1 } from '../present.js';
import { codesOf } from '../../../lib/error-catalog.js';

export default defineTool({
  name: 'reverse_geocode',
  description:
    'The known place nearest to a point (lat, lon), with its distance and direction from the point, and the next ' +
    'nearest places within 300 km. Fails (404) when no known place lies within max_distance_km.',
  input: z.strictObject({
    lat: lat.describe('Latitude in decimal degrees (−90 to 90).'),
    lon: lon.describe('Longitude in decimal degrees (−180 to 180).'),
    max_distance_km: z.number().positive().max(2000).default(100).describe('How far the nearest place may be, in km (default 100, at most 2000).'),
  }),
  output: z.object({
    query: z.object({ lat: z.number(), lon: z.number() }),
    location: PlaceOut.extend({ population: z.number().int() }),
    distance_km: z.number().describe('From the point to the place.'),
    direction: z.string().describe("Where the place lies as seen from the point, e.g. 'NE'."),
    nearby: z
      .array(z.object({ location_id: z.string(), name: z.string(), region: z.string(), country_code: z.string(), distance_km: z.number() }))
      .describe('Up to 4 other places within 300 km of the point, nearest first.'),
  }),
  errors: codesOf(WEATHER_ERRORS, 'no_place_nearby'),
  mutates: false,
  example: { lat: 45.52, lon: -122.68 },
  run({ lat: atLat, lon: atLon, max_distance_km }, db: WeatherDb) {
    const [nearest, ...others] = placesByDistance(db, atLat, atLon);
    if (!nearest || nearest.distance > max_distance_km) {
      const where = nearest ? ` (the nearest, ${nearest.place.name}, is ${Math.round(nearest.distance)} km away)` : '';
      throw toolError(WEATHER_ERRORS.no_place_nearby, `No known place within ${max_distance_km} km of ${atLat}, ${atLon}${where}.`);
    }
    const { place, distance } = nearest;
    return {
      query: { lat: atLat, lon: atLon },
      location: { ...placeOut(place), population: place.population },
      distance_km: round1(distance),
      direction: compass(bearingDeg(atLat, atLon, place.lat, place.lon)),
      nearby: others
        .filter((o) => o.distance <= 300)
        .slice(0, 4)
        .map((o) => ({
          location_id: o.place.id,
          name: o.place.name,
          region: o.place.region,
          country_code: o.place.country_code,
          distance_km: round1(o.distance),
        })),
    };
  },
});
