import { z } from 'zod';
import { UNIT_SYSTEMS } from './present.js';

// Argument schemas the weather tools share, described once.

export const locationId = z
  .string()
  .min(1)
  .describe("Place id as returned by geocode_location or reverse_geocode, e.g. 'portland-or-us'. Give it, or lat and lon.");
export const lat = z.number().min(-90).max(90).describe('Latitude in decimal degrees (−90 to 90). With lon, instead of location_id.');
export const lon = z.number().min(-180).max(180).describe('Longitude in decimal degrees (−180 to 180). With lat, instead of location_id.');

/** The ways to say where: a place id, or a point (answered for the nearest place within 100 km). */
export const locator = {
  location_id: locationId.optional(),
  lat: lat.optional(),
  lon: lon.optional(),
};

export const LOCATOR_TEXT =
  'Locate by location_id (from geocode_location), or by lat and lon: a point is answered for the nearest known place ' +
  'within 100 km, which the answer names.';

export const units = z
  .enum(UNIT_SYSTEMS)
  .default('metric')
  .describe("'metric' (default: °C, km/h, mm, cm, hPa, km) or 'imperial' (°F, mph, in, inHg, mi). The answer's units field says which.");

export const isoDate = z.iso.date().describe('A date, YYYY-MM-DD.');

interface Located {
  location_id?: string | undefined;
  lat?: number | undefined;
  lon?: number | undefined;
}

/**
 * Checks that a call says where in exactly one way, naming the field at fault. `others` are the
 * fields of an alternative way the tool accepts (weather_alerts' country/region).
 */
export function checkLocator(args: Located, ctx: z.RefinementCtx, others: readonly string[] = []): void {
  const hasId = args.location_id !== undefined;
  const hasLat = args.lat !== undefined;
  const hasLon = args.lon !== undefined;
  const hasOther = others.some((field) => (args as Record<string, unknown>)[field] !== undefined);
  const issue = (field: string, message: string) => ctx.addIssue({ code: 'custom', path: [field], message });
  if (hasLat !== hasLon) {
    issue(hasLat ? 'lon' : 'lat', `required with ${hasLat ? 'lat' : 'lon'}`);
    return;
  }
  if (hasId && hasLat) {
    issue('location_id', 'give either location_id or lat and lon, not both');
    return;
  }
  const ways = others.length > 0 ? `location_id, lat and lon, or ${others.join('/')}` : 'location_id, or lat and lon';
  if (!hasId && !hasLat && !hasOther) {
    issue('location_id', `required: give ${ways}`);
    return;
  }
  if ((hasId || hasLat) && hasOther) issue(others.find((f) => (args as Record<string, unknown>)[f] !== undefined)!, `give either ${ways}, not several`);
}
