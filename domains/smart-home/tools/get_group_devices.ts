import { z } from 'zod';
import { nearMatches } from '../../../lib/text.js';
import { toolError } from '../../errors.js';
import { SMART_HOME_ERRORS } from '../errors.js';
import { defineTool } from '../../tool.js';
import type { SmartHomeDb } from '../db.js';
import { devicesOfHome, InventoryEntry, inventoryEntry } from '../inventory.js';
import type { Device, Home } from '../schema.js';
import { codesOf } from '../../../lib/error-catalog.js';

interface Found {
  home: Home;
  name: string;
  kind: 'room' | 'group';
  devices: Device[];
}

/** The room or group of any home with this id. */
function findGroup(db: SmartHomeDb, id: string): Found | undefined {
  for (const home of db.homes.values()) {
    const room = home.rooms.find((r) => r.room_id === id);
    if (room) return { home, name: room.name, kind: 'room', devices: devicesOfHome(db, home).filter((d) => d.room_id === id) };
    const group = home.groups.find((g) => g.group_id === id);
    if (group) return { home, name: group.name, kind: 'group', devices: group.endpoints.flatMap((e) => db.devices.get(e) ?? []) };
  }
  return undefined;
}

export default defineTool({
  name: 'get_group_devices',
  description:
    "List the devices of a room or of a group of devices (such as 'downstairs' or 'all lights'), by the room_id or " +
    'group_id that get_user_inventory lists for the home. Each device comes as in get_user_inventory: endpoint, name, ' +
    'alternate names, type, room and whether it is online. A group can mix types: when the person names a kind of ' +
    'device ("the downstairs lights"), keep only the devices of that kind. Changes nothing.',
  input: z.strictObject({
    group_id: z
      .string()
      .min(1)
      .max(100)
      .describe("A room_id or group_id from get_user_inventory, e.g. a room such as the kitchen or a group such as 'downstairs'."),
  }),
  output: z.object({
    group_id: z.string(),
    name: z.string(),
    kind: z.enum(['room', 'group']),
    home_id: z.string(),
    devices: z.array(InventoryEntry),
  }),
  errors: codesOf(SMART_HOME_ERRORS, 'group_not_found'),
  mutates: false,
  example: { group_id: 'home_01-g-downstairs' },
  run({ group_id }, db: SmartHomeDb) {
    const found = findGroup(db, group_id);
    if (!found) {
      const ids = [...db.homes.values()].flatMap((home) => [...home.rooms.map((r) => r.room_id), ...home.groups.map((g) => g.group_id)]);
      const near = nearMatches(group_id, ids);
      const hint = near.length > 0 ? ` Did you mean ${near.map((id) => `'${id}'`).join(', ')}?` : '';
      throw toolError(SMART_HOME_ERRORS.group_not_found, `Unknown group_id '${group_id}'.${hint} Use get_user_inventory to list a home's rooms and groups.`);
    }
    const { home, name, kind, devices } = found;
    return { group_id, name, kind, home_id: home.home_id, devices: devices.map((device) => inventoryEntry(home, device)) };
  },
});
