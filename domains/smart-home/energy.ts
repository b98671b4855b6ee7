import { HOUR } from '../../lib/time.js';
import type { Device, DeviceState } from './schema.js';

// Energy readings are a deterministic function of a device's draw history (power_log) and the session
// clock: the draw is a step function of time, set at every change of state, and a reading integrates it.

/** How much of the rated draw a thermostat's mode uses, on average over its duty cycle. */
const MODE_DUTY = { heat: 0.55, cool: 0.5, auto: 0.45, eco: 0.3, off: 0 } as const;

/** The draw of a device in a state, in watts. */
export function drawOf(device: Pick<Device, 'type' | 'rated_watts' | 'standby_watts' | 'online'>, state: DeviceState): number {
  if (device.type === 'thermostat') {
    const duty = MODE_DUTY[state.mode ?? 'off'];
    return round2(device.standby_watts + device.rated_watts * duty);
  }
  if (state.power !== 'on') return device.standby_watts;
  if (state.brightness !== undefined) return round2(device.standby_watts + device.rated_watts * (0.1 + (0.9 * state.brightness) / 100));
  if (state.playback?.status === 'playing') return device.rated_watts;
  if (device.type === 'speaker' || device.type === 'tv') return round2(device.standby_watts + device.rated_watts * 0.6);
  return device.rated_watts;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

/** Energy figures are reported to the watt-hour. */
export const roundKwh = (kwh: number) => Math.round(kwh * 1000) / 1000;

/** Energy used over [from, to) in kWh, from the draw history; before its first step, the first step's draw. */
export function energyKwh(log: Device['power_log'], from: number, to: number): number {
  if (to <= from || log.length === 0) return 0;
  let wattHours = 0;
  for (let i = 0; i < log.length; i++) {
    const start = i === 0 ? Number.NEGATIVE_INFINITY : Date.parse(log[i]!.at);
    const end = i + 1 < log.length ? Date.parse(log[i + 1]!.at) : Number.POSITIVE_INFINITY;
    const overlap = Math.min(end, to) - Math.max(start, from);
    if (overlap > 0) wattHours += (log[i]!.watts * overlap) / HOUR;
  }
  return wattHours / 1000;
}

/** Energy history is kept for this long before now; readings reach no further back. */
export const HISTORY_DAYS = 90;

/**
 * Changes of draw a device keeps, as a hub keeps a bounded history: a device switched on and off all day
 * long (an agent's retries, a benchmark) keeps a record, and journal entries, of bounded size.
 */
export const MAX_POWER_STEPS = 50;

/**
 * The log after a change of draw at `at`: a new step when the draw changed, and steps that ended before
 * the history window dropped, or beyond the last MAX_POWER_STEPS (the first kept step still tells the
 * draw before it).
 */
export function logged(log: Device['power_log'], at: string, watts: number): Device['power_log'] {
  const steps = log.at(-1)?.watts === watts ? [...log] : [...log, { at, watts }];
  const horizon = Date.parse(at) - HISTORY_DAYS * 24 * HOUR;
  let first = Math.max(0, steps.length - MAX_POWER_STEPS);
  while (first + 1 < steps.length && Date.parse(steps[first + 1]!.at) <= horizon) first++;
  return steps.slice(first);
}
