import { z } from 'zod';

// The smart-home data model: homes (rooms, groups, a tariff), the people who live there (with their
// preferences), devices by endpoint (capabilities, the device's own state, the hub's cached view of
// it, and the power draw history energy readings are computed from), a media catalog, alarms and
// notifications. Every id is the record's key in its table.

export const DEVICE_TYPES = ['light', 'dimmer', 'color_bulb', 'thermostat', 'lock', 'blind', 'garage_door', 'speaker', 'tv', 'plug'] as const;
export type DeviceType = (typeof DEVICE_TYPES)[number];

export const CAPABILITIES = [
  'power',
  'brightness',
  'color',
  'thermostat',
  'lock',
  'open_close',
  'position',
  'volume',
  'channel',
  'playback',
  'alarm',
  'energy',
] as const;
export type Capability = (typeof CAPABILITIES)[number];

export const THERMOSTAT_MODES = ['heat', 'cool', 'auto', 'eco', 'off'] as const;
export type ThermostatMode = (typeof THERMOSTAT_MODES)[number];

export const TEMPERATURE_UNITS = ['C', 'F'] as const;
export type TemperatureUnit = (typeof TEMPERATURE_UNITS)[number];

export const MEDIA_TYPES = ['song', 'album', 'artist', 'playlist', 'movie', 'show', 'episode'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

export const PLAYBACK_STATUSES = ['playing', 'paused', 'stopped'] as const;

export const IsoInstant = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/);
/** A wall-clock time at the home, without offset: `YYYY-MM-DDTHH:MM:SS`. */
export const LocalDateTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
export const HexColor = z.string().regex(/^#[0-9A-F]{6}$/);

/** What a device is playing: its queue of media ids and where it stands in it. */
export const Playback = z.object({
  status: z.enum(PLAYBACK_STATUSES),
  /** What was asked for: a song, an album, a playlist, an artist, a movie or a show. */
  media_id: z.string(),
  /** The playable items (songs, a movie, episodes) in play order. */
  queue: z.array(z.string()),
  index: z.number().int().min(0),
  shuffle: z.boolean(),
});

/**
 * A device's state: the members its capabilities give it. Temperatures are in the thermostat's display
 * `unit`; brightness, volume and position are percentages.
 */
export const DeviceState = z.object({
  power: z.enum(['on', 'off']).optional(),
  brightness: z.number().int().min(0).max(100).optional(),
  color: HexColor.optional(),
  mode: z.enum(THERMOSTAT_MODES).optional(),
  unit: z.enum(TEMPERATURE_UNITS).optional(),
  target_temperature: z.number().optional(),
  current_temperature: z.number().optional(),
  humidity: z.number().int().min(0).max(100).optional(),
  lock: z.enum(['locked', 'unlocked', 'jammed']).optional(),
  /** A lock's door sensor, or a garage door. */
  door: z.enum(['open', 'closed']).optional(),
  /** Blinds: 0 closed, 100 fully open. */
  position: z.number().int().min(0).max(100).optional(),
  /** A garage door's obstruction sensor: it cannot close while something blocks the beam. */
  obstructed: z.boolean().optional(),
  volume: z.number().int().min(0).max(100).optional(),
  channel: z.number().int().min(1).optional(),
  playback: Playback.nullable().optional(),
  battery: z.number().int().min(0).max(100).optional(),
});

/** The draw of a device from an instant on, in watts: energy readings integrate these steps. */
export const PowerStep = z.object({ at: IsoInstant, watts: z.number().min(0) });

export const Device = z.object({
  /** The device's address for commands: its name without spaces and a number, e.g. 'FloorLamp_12'. */
  endpoint: z.string(),
  home_id: z.string(),
  room_id: z.string(),
  type: z.enum(DEVICE_TYPES),
  name: z.string(),
  /** What people call it: "the lamp by the sofa". */
  alternate_names: z.array(z.string()),
  manufacturer: z.string(),
  model: z.string(),
  firmware: z.string(),
  capabilities: z.array(z.enum(CAPABILITIES)),
  online: z.boolean(),
  /** When the hub last heard from the device. */
  last_seen_at: IsoInstant,
  /** The device's own state: what its telemetry reports (its last known state while offline). */
  state: DeviceState,
  /** The hub's cached view of the device, as of its last sync. */
  hub: z.object({ state: DeviceState, synced_at: IsoInstant }),
  /** Locks: the users allowed to unlock it. */
  authorized_users: z.array(z.string()).optional(),
  /** Draw when on at full level, and when off or idle (watts). */
  rated_watts: z.number().min(0),
  standby_watts: z.number().min(0),
  /** The draw history, oldest first. */
  power_log: z.array(PowerStep),
});

export const Room = z.object({ room_id: z.string(), name: z.string() });
export const Group = z.object({ group_id: z.string(), name: z.string(), endpoints: z.array(z.string()) });

export const Home = z.object({
  home_id: z.string(),
  name: z.string(),
  address: z.object({ street: z.string(), city: z.string(), state: z.string(), zip: z.string(), country: z.string() }),
  /** IANA time zone: alarms and energy days are in the home's local time. */
  timezone: z.string(),
  owner_id: z.string(),
  members: z.array(z.string()),
  rooms: z.array(Room),
  groups: z.array(Group),
  /** Price of a kWh, in `currency`. */
  tariff_per_kwh: z.number().min(0),
  currency: z.string(),
});

export const User = z.object({
  user_id: z.string(),
  name: z.object({ first_name: z.string(), last_name: z.string() }),
  email: z.string(),
  phone: z.string(),
  home_id: z.string(),
  role: z.enum(['owner', 'resident', 'guest']),
  preferences: z.object({
    temperature_unit: z.enum(TEMPERATURE_UNITS),
    /** The endpoint media plays on when no device is named. */
    preferred_speaker: z.string().nullable(),
  }),
});

export const Media = z.object({
  /** Typed: 'song:…', 'album:…', 'artist:…', 'playlist:…', 'movie:…', 'show:…', 'episode:…'. */
  media_id: z.string(),
  type: z.enum(MEDIA_TYPES),
  title: z.string(),
  /** The performer (songs, albums), director (movies) or network (shows); null for playlists. */
  artist: z.string().nullable(),
  artist_id: z.string().nullable(),
  album_id: z.string().nullable(),
  /** Episodes: their show. */
  show_id: z.string().nullable(),
  genre: z.string(),
  year: z.number().int(),
  duration_s: z.number().int().min(0),
  explicit: z.boolean(),
  /** The playable items a collection plays, in order: an album's or playlist's songs, an artist's top songs, a show's episodes. */
  items: z.array(z.string()),
  /** How often it was played in the catalog's chart, for ranking. */
  popularity: z.number().int().min(0).max(100),
});

export const ALARM_RECURRENCES = ['once', 'daily', 'weekdays', 'weekends'] as const;

export const Alarm = z.object({
  alarm_id: z.string(),
  endpoint: z.string(),
  user_id: z.string(),
  home_id: z.string(),
  /** When it rings next, at the home. */
  time: LocalDateTime,
  recurrence: z.enum(ALARM_RECURRENCES),
  label: z.string(),
  enabled: z.boolean(),
  created_at: IsoInstant,
});

export const NOTIFICATION_CATEGORIES = ['security', 'device', 'energy', 'media', 'system'] as const;

export const Notification = z.object({
  notification_id: z.string(),
  home_id: z.string(),
  /** The member it was sent to; null for the whole home. */
  user_id: z.string().nullable(),
  endpoint: z.string().nullable(),
  category: z.enum(NOTIFICATION_CATEGORIES),
  title: z.string(),
  message: z.string(),
  created_at: IsoInstant,
  read: z.boolean(),
});

export const SmartHomeDatabase = z.object({
  homes: z.record(z.string(), Home),
  users: z.record(z.string(), User),
  devices: z.record(z.string(), Device),
  media: z.record(z.string(), Media),
  alarms: z.record(z.string(), Alarm),
  notifications: z.record(z.string(), Notification),
});

export type DeviceState = z.infer<typeof DeviceState>;
export type Playback = z.infer<typeof Playback>;
export type Device = z.infer<typeof Device>;
export type Home = z.infer<typeof Home>;
export type User = z.infer<typeof User>;
export type Media = z.infer<typeof Media>;
export type Alarm = z.infer<typeof Alarm>;
export type Notification = z.infer<typeof Notification>;
export type SmartHomeDatabase = z.infer<typeof SmartHomeDatabase>;

export interface SmartHomeRecords extends Record<string, unknown> {
  homes: Home;
  users: User;
  devices: Device;
  media: Media;
  alarms: Alarm;
  notifications: Notification;
}

/** The capabilities each type of device has. */
export const TYPE_CAPABILITIES: Record<DeviceType, readonly Capability[]> = {
  light: ['power', 'energy'],
  dimmer: ['power', 'brightness', 'energy'],
  color_bulb: ['power', 'brightness', 'color', 'energy'],
  thermostat: ['thermostat', 'energy'],
  lock: ['lock'],
  blind: ['open_close', 'position'],
  garage_door: ['open_close'],
  speaker: ['power', 'volume', 'playback', 'alarm', 'energy'],
  tv: ['power', 'volume', 'channel', 'playback', 'energy'],
  plug: ['power', 'energy'],
};
