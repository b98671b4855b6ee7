import { z } from 'zod';
import { cloneJson } from '../../lib/clone.js';
import { ToolError } from '../errors.js';
import type { ToolContext } from '../tool.js';
import { offline, requireDevice, type SmartHomeDb } from './db.js';
import { drawOf, logged } from './energy.js';
import { type Device, DeviceState } from './schema.js';

// How a device command runs over its endpoints, as multi-target smart-home APIs do: every endpoint
// must exist (an unknown one refuses the whole call), then each device takes the command or refuses
// it on its own (offline, off, a capability it lacks, a rule of its state). The devices that took it
// change; the answer reports per endpoint. When no device took it, the call is refused as a whole
// with the first device's error, and nothing changes.

export const EndpointResult = z.object({
  endpoint: z.string(),
  name: z.string(),
  status: z.enum(['ok', 'failed']),
  /** The device's state after the command (ok only). */
  state: DeviceState.optional(),
  /** Why the device refused (failed only). */
  code: z.string().optional(),
  error: z.string().optional(),
});

export const CommandOutput = z.object({
  results: z.array(EndpointResult),
  succeeded: z.number().int(),
  failed: z.number().int(),
});

export type EndpointResult = z.infer<typeof EndpointResult>;
export type CommandOutput = z.infer<typeof CommandOutput>;

/** What one device does with a command: the members of its state that change, or a ToolError. */
export type DeviceCommand = (device: Device, now: Date) => Partial<DeviceState>;

/** Writes a new state to a device: its own state, the hub's view (the hub relayed it), and its draw. */
export function applyState(db: SmartHomeDb, device: Device, patch: Partial<DeviceState>, now: Date): Device {
  const edited = db.devices.edit(device.endpoint)!;
  const at = now.toISOString();
  edited.state = { ...edited.state, ...patch };
  edited.hub = { state: cloneJson(edited.state), synced_at: at };
  edited.last_seen_at = at;
  edited.power_log = logged(edited.power_log, at, drawOf(edited, edited.state));
  return edited;
}

type Outcome = { device: Device; patch: Partial<DeviceState> } | { device: Device; error: ToolError };

/** Runs a command on each endpoint; see the top of this file. */
export function runCommand(db: SmartHomeDb, endpoints: readonly string[], ctx: ToolContext, command: DeviceCommand): CommandOutput {
  const devices = endpoints.map((endpoint) => requireDevice(db, endpoint));
  const now = ctx.now();
  const outcomes = devices.map((device): Outcome => {
    try {
      if (!device.online) throw offline(device);
      return { device, patch: command(device, now) };
    } catch (error) {
      if (error instanceof ToolError) return { device, error };
      throw error;
    }
  });
  const failures = outcomes.flatMap((o) => ('error' in o ? [o] : []));
  if (failures.length === outcomes.length) {
    const first = failures[0]!.error;
    const errors = failures.map(({ device, error }) => ({ endpoint: device.endpoint, code: error.code, error: error.message }));
    throw new ToolError(first.status, first.code, first.message, devices.length > 1 ? { ...first.extra, errors } : first.extra);
  }
  const results: EndpointResult[] = outcomes.map((outcome) =>
    'error' in outcome
      ? { endpoint: outcome.device.endpoint, name: outcome.device.name, status: 'failed', code: outcome.error.code, error: outcome.error.message }
      : { endpoint: outcome.device.endpoint, name: outcome.device.name, status: 'ok', state: applyState(db, outcome.device, outcome.patch, now).state },
  );
  return { results, succeeded: results.length - failures.length, failed: failures.length };
}
