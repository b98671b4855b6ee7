import type { DeviceState, DeviceType } from '../schema.js';

// The member of a device's state that says what it is doing, and what another source showing it
// differently would show: the value the look-alike, lagging and disagreeing answers carry.

/** The member a person asks about first: is it on, is it locked, is it open, what mode. */
export function primaryMember(type: DeviceType): keyof DeviceState {
  switch (type) {
    case 'thermostat':
      return 'mode';
    case 'lock':
      return 'lock';
    case 'blind':
      return 'position';
    case 'garage_door':
      return 'door';
    default:
      return 'power';
  }
}

const FLIPPED: Record<string, unknown> = { on: 'off', off: 'on', locked: 'unlocked', unlocked: 'locked', jammed: 'locked', open: 'closed', closed: 'open' };

/** Another value of a state member, as a disagreeing source would show it; undefined when the member is absent. */
export function otherValue(member: keyof DeviceState, value: unknown): unknown {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' && value in FLIPPED) return FLIPPED[value];
  if (member === 'mode') return value === 'eco' ? 'heat' : 'eco';
  if (member === 'position' && typeof value === 'number') return value >= 50 ? 0 : 100;
  if (typeof value === 'number') return value + 2;
  return undefined;
}

/** The state with its primary member shown otherwise, and the member's path; null when the state has no such member. */
export function withPrimaryFlipped(type: DeviceType, state: DeviceState): { state: DeviceState; member: keyof DeviceState; shown: unknown } | null {
  const member = primaryMember(type);
  const shown = otherValue(member, state[member]);
  return shown === undefined ? null : { state: { ...state, [member]: shown }, member, shown };
}
