import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { offline, requireDevice, type SmartHomeDb } from '../db.js';
import { endpoint } from '../fields.js';
import { primaryMember } from '../hazards/state-members.js';
import { type Device, DeviceState, IsoInstant } from '../schema.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { SMART_HOME_ERRORS } from '../errors.js';

/** With no request pending, the shadow's desired state is the one the device reports (the owner's app asked for it). */
export const DESIRED_VERSION = 6;
const desiredNow = (device: Device) => {
  const member = primaryMember(device.type);
  return { state: member in device.state ? { [member]: device.state[member] } : {}, requested_by: 'app:home', version: DESIRED_VERSION };
};

export default defineTool({
  name: 'get_device_telemetry',
  description:
    "Ask one device for its own live report of its state (source 'device'), as of now (reported_at). This is the " +
    "authoritative answer to what a device is doing: when it disagrees with the hub's cached view " +
    "(get_device_details), the telemetry is right. Temperatures are in the thermostat's `unit`; brightness, volume " +
    'and position are percentages; playback holds the queue of media ids and the index of the current item. An ' +
    'offline device cannot report: the call is refused (409 device_offline, with last_seen_at); then give the ' +
    "hub's last known state from get_device_details, as of its last_synced_at, as last known. Changes nothing.",
  input: z.strictObject({ endpoint }),
  output: z.object({
    endpoint: z.string(),
    name: z.string(),
    online: z.literal(true),
    desired: z
      .object({
        state: DeviceState.describe('What was last asked of its main member.'),
        requested_by: z.string().describe('The app that asked.'),
        version: z.number().int().describe('The version of the request, raised by each new one.'),
      })
      .describe("The device shadow's desired state: the last request made of the device, which it may not have applied yet."),
    state: DeviceState.describe("The device's state as it reports it now."),
    reported_at: IsoInstant,
    source: z.literal('device'),
  }),
  errors: codesOf(SMART_HOME_ERRORS, 'endpoint_not_found', 'device_offline'),
  mutates: false,
  example: { endpoint: 'FloorLamp_1' },
  run({ endpoint }, db: SmartHomeDb, ctx) {
    const device = requireDevice(db, endpoint);
    if (!device.online) {
      throw offline(device, "it cannot report its state. get_device_details gives the hub's last known view, as of its last_synced_at.");
    }
    return {
      endpoint: device.endpoint,
      name: device.name,
      online: true as const,
      desired: desiredNow(device),
      state: device.state,
      reported_at: ctx.now().toISOString(),
      source: 'device' as const,
    };
  },
});
