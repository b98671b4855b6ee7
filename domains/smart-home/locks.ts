import { toolError } from '../errors.js';
import { SMART_HOME_ERRORS } from './errors.js';
import { requireCapability } from './control.js';
import { label } from './db.js';
import type { Device } from './schema.js';

// What lock_lock and lock_unlock share: the device is a lock whose bolt can move.

/** The device is a lock: 422 capability_unsupported otherwise. */
export const requireLock = (device: Device): void => requireCapability(device, 'lock', 'locking and unlocking');

/** A lock whose bolt is not jammed: 409 lock_jammed otherwise. Returns its current lock state. */
export function requireOperableLock(device: Device): 'locked' | 'unlocked' {
  requireLock(device);
  const state = device.state.lock ?? 'unlocked';
  if (state === 'jammed') {
    throw toolError(SMART_HOME_ERRORS.lock_jammed, `${label(device)} is jammed: its bolt cannot be moved remotely until someone frees it by hand.`);
  }
  return state;
}
