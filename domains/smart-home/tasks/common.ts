import type { Random } from '../../../lib/random.js';
import { NoInstance } from '../../task.js';
import { setpointLimits } from '../climate.js';
import type { SmartHomeDb } from '../db.js';
import type { Device, DeviceState, DeviceType, Home, Media, TemperatureUnit, ThermostatMode, User } from '../schema.js';

// What smart-home's templates share to pick their instances: people and their homes, and the words a person
// uses for a device (its name, or a name people use for it that fits no other device of the home).

export const LIGHTING: readonly DeviceType[] = ['light', 'dimmer', 'color_bulb'];
export const isLighting = (device: Device) => LIGHTING.includes(device.type);

export const fullName = (user: User) => `${user.name.first_name} ${user.name.last_name}`;

/** The person as the request introduces them. */
export const person = (user: User) => ({ name: fullName(user), user_id: user.user_id });

/** Every device of a home. */
export const devicesOf = (db: SmartHomeDb, homeId: string): Device[] => [...db.devices.values()].filter((device) => device.home_id === homeId);

/** The people of a home. */
export const membersOf = (db: SmartHomeDb, home: Home): User[] => home.members.flatMap((id) => db.users.get(id) ?? []);

/** Every person, with their home. */
export const people = (db: SmartHomeDb): { user: User; home: Home }[] =>
  [...db.users.values()].flatMap((user) => {
    const home = db.homes.get(user.home_id);
    return home ? [{ user, home }] : [];
  });

/** Whether the hub's view agrees with the device's own report on these members of its state. */
export const inSync = (device: Device, members: readonly (keyof DeviceState)[]) =>
  members.every((member) => JSON.stringify(device.hub.state[member]) === JSON.stringify(device.state[member]));

/** A name as compared: without case and a leading "the". */
export const bare = (name: string) => name.toLowerCase().replace(/^the /, '');

/** The names a person may use for a device: its name, and each of its alternate names no other device of the home answers to. */
export function namesFor(device: Device, home: readonly Device[]): string[] {
  const others = home.filter((other) => other.endpoint !== device.endpoint).flatMap((other) => [other.name, ...other.alternate_names].map(bare));
  return [device.name, ...device.alternate_names].filter((name) => !others.includes(bare(name)));
}

/** A name as said in a sentence: "the kitchen speaker", "the living room TV", "the lamp by the sofa". */
export const spoken = (name: string) =>
  /^the /i.test(name)
    ? name
    : `the ${name
        .split(' ')
        .map((word) => (/^[A-Z]{2,}$/.test(word) ? word : word.toLowerCase()))
        .join(' ')}`;

/** Picks from candidates, or names what the template looked for when a world has none. */
export function pickFrom<T>(random: Random, candidates: readonly T[], what: string): T {
  if (candidates.length === 0) throw new NoInstance(`no ${what} in this world`);
  return random.pick(candidates);
}

/** The device of an inventory a person names (by its name or one of its alternate names). */
export function named<D extends { name: string; alternate_names: readonly string[] }>(devices: readonly D[], phrase: string): D {
  const wanted = bare(phrase);
  const device = devices.find((d) => bare(d.name) === wanted) ?? devices.find((d) => d.alternate_names.some((name) => bare(name) === wanted));
  if (!device) throw new Error(`no device called ${phrase}`);
  return device;
}

export const LOCK_STATES = ['locked', 'unlocked', 'jammed'] as const;
export const DOOR_STATES = ['open', 'closed'] as const;
export const POWER_STATES = ['on', 'off'] as const;

/** A date in words: "1 May". */
export const dayMonth = (date: string) =>
  `${Number(date.slice(8, 10))} ` +
  `${['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'][Number(date.slice(5, 7)) - 1]}`;

/** Catalog items of a type whose title no other item of that type has: a search for the title finds them first. */
export function uniquelyTitled(db: SmartHomeDb, type: Media['type']): Media[] {
  const items = [...db.media.values()].filter((media) => media.type === type);
  const count = new Map<string, number>();
  for (const media of items) count.set(media.title.toLowerCase(), (count.get(media.title.toLowerCase()) ?? 0) + 1);
  return items.filter((media) => count.get(media.title.toLowerCase()) === 1 && /^[\p{L}\p{N} ']+$/u.test(media.title));
}

/** Whole degrees within a mode's setpoint limits, in a unit, that people choose indoors. */
export function comfortable(mode: ThermostatMode, unit: TemperatureUnit): number[] {
  if (mode === 'off') return [];
  const [low, high] = setpointLimits(mode, unit);
  const [from, to] = unit === 'C' ? [17, 25] : [63, 77];
  return Array.from({ length: high - low + 1 }, (_, i) => low + i).filter((t) => t >= from && t <= to);
}
