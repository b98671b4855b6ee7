import type { Tables } from '../../lib/table.js';
import { nearMatches } from '../../lib/text.js';
import { type ToolError, toolError } from '../errors.js';
import { SMART_HOME_ERRORS } from './errors.js';
import type { Capability, Device, Home, Media, SmartHomeRecords, User } from './schema.js';

/** The smart-home database as a tool sees it. */
export type SmartHomeDb = Tables<SmartHomeRecords>;

const suggest = (key: string, keys: Iterable<string>) => {
  const near = nearMatches(key, keys);
  return near.length > 0 ? ` Did you mean ${near.map((k) => `'${k}'`).join(', ')}?` : '';
};

export function requireUser(db: SmartHomeDb, userId: string): User {
  const user = db.users.get(userId);
  if (user) return user;
  throw toolError(SMART_HOME_ERRORS.user_not_found, `Unknown user_id '${userId}'.`);
}

export function requireHome(db: SmartHomeDb, homeId: string): Home {
  const home = db.homes.get(homeId);
  if (home) return home;
  throw toolError(SMART_HOME_ERRORS.home_not_found, `Unknown home_id '${homeId}'.`);
}

/** The device at an endpoint; an unknown endpoint names the nearest ones. */
export function requireDevice(db: SmartHomeDb, endpoint: string): Device {
  const device = db.devices.get(endpoint);
  if (device) return device;
  throw toolError(
    SMART_HOME_ERRORS.endpoint_not_found,
    `Unknown endpoint '${endpoint}'.${suggest(
      endpoint,
      [...db.devices.entries()].map(([key]) => key),
    )} Use get_user_inventory to list a home's endpoints.`,
  );
}

export function requireMedia(db: SmartHomeDb, mediaId: string): Media {
  const media = db.media.get(mediaId);
  if (media) return media;
  const typed = /^[a-z]+:/.test(mediaId) ? '' : " Media ids are typed, e.g. 'song:…', 'album:…', 'movie:…'.";
  throw toolError(SMART_HOME_ERRORS.media_not_found, `Unknown media_id '${mediaId}'.${typed} Use search_media to find an item's id.`);
}

export const hasCapability = (device: Device, capability: Capability): boolean => device.capabilities.includes(capability);

/** How a device is named in messages: "Floor Lamp (FloorLamp_12)". */
export const label = (device: Device): string => `${device.name} (${device.endpoint})`;

/** A device lacks what a command needs. */
export const unsupported = (device: Device, what: string): ToolError =>
  toolError(SMART_HOME_ERRORS.capability_unsupported, `${label(device)} is a ${device.type.replace('_', ' ')} and does not support ${what}.`);

/** A command needs the device on. */
export const poweredOff = (device: Device, what: string): ToolError =>
  toolError(SMART_HOME_ERRORS.device_off, `${label(device)} is off: turn it on with power_on before ${what}.`);

/** The device does not answer: the hub cannot deliver a command to it. */
export const offline = (device: Device, consequence = 'the command cannot reach it.'): ToolError =>
  toolError(SMART_HOME_ERRORS.device_offline, `${label(device)} is offline (last seen ${device.last_seen_at}): ${consequence}`, {
    extra: { last_seen_at: device.last_seen_at },
  });
