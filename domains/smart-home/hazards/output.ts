import type { ResultHook } from '../../../hazards/kind.js';
import { isObject } from '../../../lib/object.js';
import type { Random } from '../../../lib/random.js';
import { toCents } from '../../../lib/money.js';
import type { SmartHomeDb } from '../db.js';
import { roundKwh } from '../energy.js';
import type { DeviceState } from '../schema.js';
import { mediaEntry } from '../tools/search_media.js';
import { otherValue, primaryMember } from './state-members.js';
import { DESIRED_VERSION } from '../tools/get_device_telemetry.js';

// How smart-home's output hazards reshape an answer: telemetry in a Zigbee-style v2 shape, promoted media,
// an inventory cut by rooms, a device shadow's desired state beside the reported one, a cached energy total.

type Obj = Record<string, unknown>;
type Hook = ResultHook<SmartHomeDb>;

/** Zigbee's Level Control cluster: levels 0–254. */
export const LEVEL_MAX = 254;

/**
 * get_device_telemetry, v2: the state is `attributes`, power a boolean `on_off`, brightness a `level` on the
 * Zigbee scale 0–254 (as Philips Hue's `bri` and Zigbee's Level Control report it), with `level_max`.
 */
export function telemetryV2({ result }: Hook): unknown {
  if (!isObject(result) || !isObject(result['state'])) return result;
  const { state, ...rest } = result as Obj & { state: DeviceState };
  const { power, brightness, ...others } = state;
  return {
    ...rest,
    attributes: {
      ...(power !== undefined ? { on_off: power === 'on' } : {}),
      ...(brightness !== undefined ? { level: Math.round((brightness * LEVEL_MAX) / 100), level_max: LEVEL_MAX } : {}),
      ...others,
    },
  };
}

/**
 * What labels pay for beside a search: popular items of the type searched for that the query does not
 * match, from the genre of the best match (a streaming service's "Promoted" tiles).
 */
export function promotedMedia({ result, db, random }: Hook): Obj[] {
  if (!isObject(result) || !Array.isArray(result['results'])) return [];
  const found = result['results'] as Obj[];
  const shown = new Set(found.map((item) => item['media_id']));
  const best = found[0];
  const candidates = [...db.media.values()]
    .filter((media) => !shown.has(media.media_id) && media.type !== 'episode' && (!best || (media.type === best['type'] && media.genre === best['genre'])))
    .sort((a, b) => b.popularity - a.popularity || (a.media_id < b.media_id ? -1 : 1))
    .slice(0, 12);
  if (candidates.length === 0) return [];
  return [...new Set([random.pick(candidates), random.pick(candidates)])].map(mediaEntry);
}

/** The room of an inventory entry. */
const roomOf = (device: Obj) => String(device['room_id']);

/** get_user_inventory keeps the devices of its first rooms, in the order it lists them. */
export function firstRooms(devices: readonly Obj[], random: Random): readonly Obj[] {
  const rooms = [...new Set(devices.map(roomOf))];
  if (rooms.length < 2) return [];
  const shown = new Set(rooms.slice(0, random.int(1, rooms.length - 1)));
  return devices.filter((device) => shown.has(roomOf(device)));
}

/** The rooms left out, whose devices get_group_devices lists (a complete inventory says so with the same members). */
export function roomsLeftOut({ result }: Hook, kept: readonly Obj[]): Obj {
  const devices = (isObject(result) && Array.isArray(result['devices']) ? result['devices'] : []) as Obj[];
  const omitted = [...new Set(devices.filter((device) => !kept.includes(device)).map(roomOf))];
  return {
    truncated: true,
    shown: kept.length,
    total: devices.length,
    omitted_rooms: omitted,
  };
}

/**
 * get_device_telemetry beside the device shadow's desired state, as AWS IoT and Azure device twins keep it: a
 * command another app asked for that the device has not applied. What the device does is its reported state.
 */
export function desiredState({ result, db }: Hook): Obj | null {
  if (!isObject(result) || !isObject(result['state']) || typeof result['endpoint'] !== 'string') return null;
  const device = db.devices.get(result['endpoint']);
  if (!device) return null;
  const member = primaryMember(device.type);
  const state = result['state'] as DeviceState;
  const desired = otherValue(member, state[member]);
  if (desired === undefined) return null;
  return { desired: { state: { [member]: desired }, requested_by: 'app:routines', version: DESIRED_VERSION + 1 } };
}

/**
 * get_energy_usage from the reporting cache: the totals as of a few hours ago, while the per-device
 * figures are fresh, so the total is no longer the sum of its devices.
 */
export function cachedEnergyTotal({ result, random, now }: Hook) {
  if (!isObject(result) || !Array.isArray(result['devices']) || typeof result['total_kwh'] !== 'number') return null;
  const total = result['total_kwh'];
  if (total <= 0.01) return null;
  const share = 0.82 + random.int(0, 12) / 100;
  const tariff = typeof result['total_cost'] === 'number' && total > 0 ? (result['total_cost'] as number) / total : 0;
  const cached = roundKwh(total * share);
  const asOf = new Date(now.getTime() - random.int(3, 9) * 3_600_000).toISOString();
  return { result: { ...result, total_kwh: cached, total_cost: toCents(cached * tariff) / 100, as_of: asOf, cache: 'HIT' }, field: 'total_kwh' };
}
