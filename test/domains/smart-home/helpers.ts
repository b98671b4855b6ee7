import { deepFreeze } from '../../../lib/freeze.js';
import { readFileSync } from 'node:fs';
import type { Device, Home, Media, MediaType, SmartHomeDatabase, User } from '../../../domains/smart-home/schema.js';

// The smart-home fixture and finders for the smart-home tests: find records by what a test needs,
// never by an id a fixture change would break.

let cached: SmartHomeDatabase | undefined;

/** The embedded smart-home fixture, parsed once. */
export function smartHomeFixture(): SmartHomeDatabase {
  cached ??= deepFreeze(JSON.parse(readFileSync(new URL('../../../fixtures/smart-home.json', import.meta.url), 'utf8')) as SmartHomeDatabase);
  return cached;
}

/** The first item that passes `test`; throws naming `what` when none does. */
function first<T>(items: Iterable<T>, test: (item: T) => boolean, what: string): T {
  for (const item of items) if (test(item)) return item;
  throw new Error(`no ${what} in the smart-home fixture`);
}

export const findDevice = (test: (device: Device) => boolean, what = 'device that matches'): Device =>
  first(Object.values(smartHomeFixture().devices), test, what);

export const findUser = (test: (user: User) => boolean, what = 'user that matches'): User => first(Object.values(smartHomeFixture().users), test, what);

export const devicesOf = (homeId: string): Device[] => Object.values(smartHomeFixture().devices).filter((device) => device.home_id === homeId);

/** The home of a user. */
export const homeOf = (userId: string): Home => {
  const user = first(Object.values(smartHomeFixture().users), (u) => u.user_id === userId, `user ${userId}`);
  return smartHomeFixture().homes[user.home_id]!;
};

export const mediaOfType = (type: MediaType): Media[] => Object.values(smartHomeFixture().media).filter((media) => media.type === type);

/** The hub's view equals the device's own state: both sources answer alike. */
export const inSync = (device: Device): boolean => JSON.stringify(device.hub.state) === JSON.stringify(device.state);
