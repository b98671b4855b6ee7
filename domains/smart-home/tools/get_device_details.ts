import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { requireDevice, type SmartHomeDb } from '../db.js';
import { endpoint } from '../fields.js';
import { roomName } from '../inventory.js';
import { CAPABILITIES, DEVICE_TYPES, DeviceState, IsoInstant } from '../schema.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { SMART_HOME_ERRORS } from '../errors.js';

export default defineTool({
  name: 'get_device_details',
  description:
    "Describe one device from the hub's records: name, alternate names, type, home and room, make, model, firmware, " +
    "capabilities, whether it is online, and the hub's CACHED view of its state as of last_synced_at (source 'hub'). " +
    'The cached view can lag behind changes made by hand or by other apps; for what the device does now, ask the ' +
    'device itself with get_device_telemetry, which is authoritative. Works for offline devices too: their state is ' +
    "the last known one, as of last_synced_at. Temperatures are in the thermostat's `unit`; brightness, volume and " +
    'position are percentages. Changes nothing.',
  input: z.strictObject({ endpoint }),
  output: z.object({
    endpoint: z.string(),
    name: z.string(),
    alternate_names: z.array(z.string()),
    type: z.enum(DEVICE_TYPES),
    home_id: z.string(),
    room_id: z.string(),
    room: z.string(),
    manufacturer: z.string(),
    model: z.string(),
    firmware: z.string(),
    capabilities: z.array(z.enum(CAPABILITIES)),
    online: z.boolean(),
    state: DeviceState.describe("The hub's cached view of the device's state."),
    last_synced_at: IsoInstant.describe('When the hub last synced this view with the device.'),
    source: z.literal('hub'),
  }),
  errors: codesOf(SMART_HOME_ERRORS, 'endpoint_not_found'),
  mutates: false,
  example: { endpoint: 'FloorLamp_1' },
  run({ endpoint }, db: SmartHomeDb) {
    const device = requireDevice(db, endpoint);
    const home = db.homes.get(device.home_id);
    return {
      endpoint: device.endpoint,
      name: device.name,
      alternate_names: device.alternate_names,
      type: device.type,
      home_id: device.home_id,
      room_id: device.room_id,
      room: home ? roomName(home, device.room_id) : device.room_id,
      manufacturer: device.manufacturer,
      model: device.model,
      firmware: device.firmware,
      capabilities: device.capabilities,
      online: device.online,
      state: device.hub.state,
      last_synced_at: device.hub.synced_at,
      source: 'hub' as const,
    };
  },
});
