import { toolError } from '../errors.js';
import { SMART_HOME_ERRORS } from './errors.js';
import { requireCapability } from './control.js';
import { hasCapability, label } from './db.js';
import type { Device, DeviceState } from './schema.js';

// What open_open and open_close do: blinds move to fully open (position 100) or closed (0); garage doors
// open or close their door, and will not close on an obstruction.

export function openedOrClosed(device: Device, to: 'open' | 'closed'): Partial<DeviceState> {
  requireCapability(device, 'open_close', 'opening and closing');
  if (hasCapability(device, 'position')) return { position: to === 'open' ? 100 : 0 };
  if (to === 'closed' && device.state.door !== 'closed' && device.state.obstructed) {
    throw toolError(
      SMART_HOME_ERRORS.obstructed,
      `${label(device)} cannot close: its obstruction sensor is blocked. Clear the doorway first; retrying will not help until then.`,
    );
  }
  return { door: to };
}
