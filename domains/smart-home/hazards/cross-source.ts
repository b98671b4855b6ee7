import type { ResultHook } from '../../../hazards/kind.js';
import { isObject } from '../../../lib/object.js';
import type { SmartHomeDb } from '../db.js';
import type { DeviceState } from '../schema.js';
import { withPrimaryFlipped } from './state-members.js';

// Smart-home's cross-source hazard: the hub's cached view disagreeing with the device's own report.

/**
 * get_device_details: the hub missed the device's last change (a switch flipped by hand, a lock turned with
 * its key), so its view shows what the device does otherwise than its telemetry.
 */
export function hubMissedChange({ result, db }: ResultHook<SmartHomeDb>) {
  if (!isObject(result) || !isObject(result['state']) || typeof result['endpoint'] !== 'string') return null;
  const device = db.devices.get(result['endpoint']);
  if (!device?.online) return null;
  const flipped = withPrimaryFlipped(device.type, device.state);
  if (!flipped) return null;
  return {
    result: { ...result, state: { ...(result['state'] as DeviceState), [flipped.member]: flipped.shown } },
    field: `state.${flipped.member}`,
    shown: flipped.shown,
  };
}
