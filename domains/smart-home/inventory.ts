import { z } from 'zod';
import type { SmartHomeDb } from './db.js';
import { DEVICE_TYPES, type Device, type Home } from './schema.js';

// How get_user_inventory and get_group_devices list a device: enough to recognise it by what people call
// it and where it is, without its state (get_device_telemetry and get_device_details read that).

export const InventoryEntry = z.object({
  endpoint: z.string().describe('The id to command the device by.'),
  name: z.string(),
  alternate_names: z.array(z.string()).describe('What people in the home call it.'),
  type: z.enum(DEVICE_TYPES),
  room_id: z.string(),
  room: z.string().describe("The room's name."),
  online: z.boolean().describe('False when the hub has lost contact: commands to it fail with device_offline.'),
});
export type InventoryEntry = z.infer<typeof InventoryEntry>;

/** The name of a room of the home (its id when the home does not list it). */
export const roomName = (home: Home, roomId: string): string => home.rooms.find((room) => room.room_id === roomId)?.name ?? roomId;

export const inventoryEntry = (home: Home, device: Device): InventoryEntry => ({
  endpoint: device.endpoint,
  name: device.name,
  alternate_names: [...device.alternate_names],
  type: device.type,
  room_id: device.room_id,
  room: roomName(home, device.room_id),
  online: device.online,
});

/** The devices of a home, room by room in the home's order of rooms (devices of unlisted rooms last). */
export function devicesOfHome(db: SmartHomeDb, home: Home): Device[] {
  const order = new Map(home.rooms.map((room, i) => [room.room_id, i]));
  const rank = (device: Device) => order.get(device.room_id) ?? home.rooms.length;
  return [...db.devices.values()].filter((device) => device.home_id === home.home_id).sort((a, b) => rank(a) - rank(b));
}
