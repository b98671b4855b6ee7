import { DAY, MINUTE } from '../../../lib/time.js';
import { AIRLINE_NOW_EST, type Flight, type FlightDateStatus } from '../schema.js';

// Time: every "_est" value is a naive Eastern wall-clock time; we count it as if it were UTC.

/** Milliseconds of a "YYYY-MM-DDTHH:MM:SS" (or "YYYY-MM-DD") Eastern time, on a naive clock. */
export function estMs(value: string): number {
  return Date.parse(value.length === 10 ? `${value}T00:00:00Z` : `${value}Z`);
}

/** "YYYY-MM-DDTHH:MM:SS" of a naive-clock time. */
export function estText(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

/** tau2-bench's "now", 2024-05-15T15:00:00 Eastern, on the naive clock. */
export const AIRLINE_NOW = estMs(AIRLINE_NOW_EST);

/** Minutes after midnight of a "HH:MM:SS" clock time; "+1" adds a day. */
export function clockMinutes(time: string): number {
  const [h = 0, m = 0, s = 0] = time.slice(0, 8).split(':').map(Number);
  return h * 60 + m + s / 60 + (time.endsWith('+1') ? 24 * 60 : 0);
}

export function scheduledDeparture(flight: Flight, date: string): number {
  return estMs(date) + clockMinutes(flight.scheduled_departure_time_est) * MINUTE;
}

export function scheduledArrival(flight: Flight, date: string): number {
  const arrival = estMs(date) + clockMinutes(flight.scheduled_arrival_time_est) * MINUTE;
  // A file whose arrival clock is before departure without "+1" still lands after it took off.
  return arrival > scheduledDeparture(flight, date) ? arrival : arrival + DAY;
}

/** When the flight leaves on that date: actual, else estimated, else scheduled; undefined when cancelled. */
export function departureTime(flight: Flight, date: string, status: FlightDateStatus): number | undefined {
  switch (status.status) {
    case 'cancelled':
      return undefined;
    case 'flying':
    case 'landed':
      return estMs(status.actual_departure_time_est);
    case 'on time':
    case 'delayed':
      return estMs(status.estimated_departure_time_est);
    case 'available':
      return scheduledDeparture(flight, date);
  }
}

/** When the flight arrives on that date: actual, else estimated, else scheduled; undefined when cancelled. */
export function arrivalTime(flight: Flight, date: string, status: FlightDateStatus): number | undefined {
  switch (status.status) {
    case 'cancelled':
      return undefined;
    case 'landed':
      return estMs(status.actual_arrival_time_est);
    case 'flying':
    case 'on time':
    case 'delayed':
      return estMs(status.estimated_arrival_time_est);
    case 'available':
      return scheduledArrival(flight, date);
  }
}
