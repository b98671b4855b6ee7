import { hasCapability, poweredOff, unsupported } from './db.js';
import type { Capability, Device } from './schema.js';

// The preconditions device commands share: a capability, and for most of them the device switched on.

/** Refuses (422 capability_unsupported) a device without `capability`; `what` completes "does not support …". */
export function requireCapability(device: Device, capability: Capability, what: string): void {
  if (!hasCapability(device, capability)) throw unsupported(device, what);
}

/** Also refuses (409 device_off) a device that is off; `doing` completes "turn it on with power_on before …". */
export function requireOn(device: Device, capability: Capability, what: string, doing: string): void {
  requireCapability(device, capability, what);
  if (device.state.power !== 'on') throw poweredOff(device, doing);
}

/** What power_on and power_off need: the power capability (a thermostat is switched by its mode). */
export const requirePower = (device: Device): void =>
  requireCapability(
    device,
    'power',
    device.type === 'thermostat' ? 'power on and off: set its mode with mode_set (mode off turns it off)' : 'power on and off',
  );
