import type { Device, DeviceType, Home, User } from '../../domains/smart-home/schema.js';
import { devicesOf, findDevice, inSync, smartHomeFixture } from '../domains/smart-home/helpers.js';

// The devices and people smart-home's probes act on, found in the fixture by what each task needs.

const LIGHTING: readonly DeviceType[] = ['light', 'dimmer', 'color_bulb'];
export const isLighting = (device: Device) => LIGHTING.includes(device.type);

/** Online, and the hub's view agrees with the device: without a hazard, either source answers alike. */
const usable = (device: Device) => device.online && inSync(device);

/** The first usable device that passes `test`. */
export const target = (what: string, test: (device: Device) => boolean): Device => findDevice((device) => usable(device) && test(device), what);

const homeOf = (device: Device): Home => smartHomeFixture().homes[device.home_id]!;
export const ownerOf = (device: Device): User => smartHomeFixture().users[homeOf(device).owner_id]!;

/** The first home with at least `count` usable devices passing `test`, and those devices. */
export function homeWith(what: string, count: number, test: (device: Device) => boolean): { home: Home; devices: Device[] } {
  for (const home of Object.values(smartHomeFixture().homes)) {
    const devices = devicesOf(home.home_id).filter((device) => usable(device) && test(device));
    if (devices.length >= count) return { home, devices };
  }
  throw new Error(`no home with ${count} ${what} in the smart-home fixture`);
}
