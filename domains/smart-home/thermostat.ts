import { toolError } from '../errors.js';
import { SMART_HOME_ERRORS } from './errors.js';
import { convertSetpoint, setpointLimits } from './climate.js';
import { requireCapability } from './control.js';
import { label } from './db.js';
import { type Device, type TemperatureUnit, THERMOSTAT_MODES, type ThermostatMode } from './schema.js';

// What temperature_set and mode_set share: the thermostat precondition, the setpoint limits as the
// descriptions quote them, and keeping a setpoint within a mode's limits.

export type SetpointMode = Exclude<ThermostatMode, 'off'>;

/** "heat 10–30 °C / 50–86 °F, cool …": every mode's limits, for descriptions. */
export const LIMITS_TEXT = THERMOSTAT_MODES.filter((mode): mode is SetpointMode => mode !== 'off')
  .map((mode) => `${mode} ${setpointLimits(mode, 'C').join('–')} °C / ${setpointLimits(mode, 'F').join('–')} °F`)
  .join(', ');

/** The device is a thermostat; its display unit. */
export function requireThermostat(device: Device, what: string): TemperatureUnit {
  requireCapability(device, 'thermostat', what);
  return device.state.unit ?? 'C';
}

/** The mode of a thermostat that holds a setpoint; 409 thermostat_off for mode 'off'. */
export function requireSetpointMode(device: Device): SetpointMode {
  const mode = device.state.mode ?? 'off';
  if (mode === 'off')
    throw toolError(SMART_HOME_ERRORS.thermostat_off, `${label(device)} is in mode 'off' and holds no setpoint: set a mode with mode_set first.`);
  return mode;
}

/** A setpoint within a mode's limits in a unit. */
export function clampSetpoint(value: number, mode: SetpointMode, unit: TemperatureUnit): number {
  const [low, high] = setpointLimits(mode, unit);
  return Math.min(high, Math.max(low, value));
}

/**
 * A temperature given in `used` as the thermostat holds it in `own`: 422 out_of_range, naming the limits in
 * the unit used, outside the mode's limits. Limits whole in both units can still round past the thermostat's
 * own (32 °C in cool is 89.6 °F, the limit 89 °F), so the result is kept within them.
 */
export function setpointFor(device: Device, temperature: number, used: TemperatureUnit, own: TemperatureUnit, mode: SetpointMode): number {
  const [low, high] = setpointLimits(mode, used);
  if (temperature < low || temperature > high) {
    throw toolError(
      SMART_HOME_ERRORS.out_of_range,
      `${label(device)} in ${mode} mode takes ${low}–${high} °${used}; ${temperature} °${used} is out of range.`,
      {
        extra: { min: low, max: high, unit: used },
      },
    );
  }
  return clampSetpoint(convertSetpoint(temperature, used, own), mode, own);
}
