import type { TemperatureUnit, ThermostatMode } from './schema.js';

// Thermostat rules shared by the tools and the fixture: the setpoint limits of each mode, in both units,
// and how a temperature is converted and rounded to what a thermostat can hold.

/** Setpoint limits per mode, in °C (a mode of 'off' holds no setpoint). */
const LIMITS_C: Record<Exclude<ThermostatMode, 'off'>, readonly [number, number]> = {
  heat: [10, 30],
  cool: [16, 32],
  auto: [10, 32],
  eco: [5, 35],
};

export const toUnit = (celsius: number, unit: TemperatureUnit): number => (unit === 'C' ? celsius : (celsius * 9) / 5 + 32);
export const toCelsius = (value: number, unit: TemperatureUnit): number => (unit === 'C' ? value : ((value - 32) * 5) / 9);

/** What a thermostat holds: half degrees Celsius, whole degrees Fahrenheit. */
export const roundSetpoint = (value: number, unit: TemperatureUnit): number => (unit === 'C' ? Math.round(value * 2) / 2 : Math.round(value));

/** A mode's setpoint limits in a unit, as the thermostat shows them (whole degrees). */
export function setpointLimits(mode: Exclude<ThermostatMode, 'off'>, unit: TemperatureUnit): [number, number] {
  const [low, high] = LIMITS_C[mode];
  return [Math.ceil(toUnit(low, unit)), Math.floor(toUnit(high, unit))];
}

/** A temperature converted from one unit to another, rounded as a thermostat in `to` holds it. */
export const convertSetpoint = (value: number, from: TemperatureUnit, to: TemperatureUnit): number =>
  from === to ? roundSetpoint(value, to) : roundSetpoint(toUnit(toCelsius(value, from), to), to);
