import { z } from 'zod';
import { formatLocal } from '../../../lib/time.js';
import { defineTool } from '../../tool.js';
import { requireHome, requireUser, type SmartHomeDb } from '../db.js';
import { userId } from '../fields.js';
import { devicesOfHome, InventoryEntry, inventoryEntry } from '../inventory.js';
import { Group, Room, User } from '../schema.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { SMART_HOME_ERRORS } from '../errors.js';

export default defineTool({
  name: 'get_user_inventory',
  description:
    'Identify a person and list their home: who they are (name, role: owner, resident or guest; preferences: ' +
    'temperature unit and preferred speaker), their home (name, IANA time zone, the local time now, rooms, and groups ' +
    'of devices such as "downstairs"), and every device of the home, room by room: endpoint id, name, the names people ' +
    'use for it (alternate_names), type, room and whether it is online. Start here: only the endpoints listed belong to ' +
    "the person's home. States are not included: read them with get_device_telemetry (live) or get_device_details " +
    "(the hub's cached view). Changes nothing.",
  input: z.strictObject({ user_id: userId }),
  output: z.object({
    user: z.object({ user_id: z.string(), name: User.shape.name, role: User.shape.role, preferences: User.shape.preferences }),
    home: z.object({
      home_id: z.string(),
      name: z.string(),
      timezone: z.string().describe('IANA time zone: alarm times and energy days are local to it.'),
      local_time: z.string().describe('The time now at the home, ISO 8601 with its offset.'),
      rooms: z.array(Room),
      groups: z.array(Group),
    }),
    devices: z.array(InventoryEntry),
    truncated: z.boolean().describe('True when devices were left out of this answer: list the omitted rooms with get_group_devices.'),
    shown: z.number().int().describe('Devices in this answer.'),
    total: z.number().int().describe('Devices of the home.'),
    omitted_rooms: z.array(z.string()).describe('The rooms whose devices were left out (none when complete).'),
  }),
  errors: codesOf(SMART_HOME_ERRORS, 'user_not_found', 'home_not_found'),
  mutates: false,
  example: { user_id: 'ezra_li_4771' },
  run({ user_id }, db: SmartHomeDb, ctx) {
    const user = requireUser(db, user_id);
    const home = requireHome(db, user.home_id);
    const devices = devicesOfHome(db, home).map((device) => inventoryEntry(home, device));
    return {
      user: { user_id: user.user_id, name: user.name, role: user.role, preferences: user.preferences },
      home: {
        home_id: home.home_id,
        name: home.name,
        timezone: home.timezone,
        local_time: formatLocal(home.timezone, ctx.now().getTime()),
        rooms: home.rooms,
        groups: home.groups,
      },
      devices,
      truncated: false,
      shown: devices.length,
      total: devices.length,
      omitted_rooms: [],
    };
  },
});
