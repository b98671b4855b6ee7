import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { smartHomeTask } from './define.js';
import { devicesOf, inSync, isLighting, POWER_STATES, people, person, pickFrom } from './common.js';

// The lights of a room, one of them offline: its state is the hub's last known one. While telemetry is down,
// the hub's view is all there is for the others too.

export default smartHomeTask({
  id: 'smart-home/012',
  title: 'Are the kitchen lights off?',
  categories: ['partial', 'multi-step'],
  pick({ db, random }) {
    const candidates = people(db).flatMap(({ user, home }) => {
      const lights = devicesOf(db, home.home_id).filter(isLighting);
      return home.rooms.flatMap((room) => {
        const here = lights.filter((d) => d.room_id === room.room_id);
        const fits = here.length >= 2 && here.some((d) => !d.online) && here.every((d) => inSync(d, ['power']));
        return fits ? [{ user, room: room.name }] : [];
      });
    });
    const { user, room } = pickFrom(random, candidates, 'room with two lights or more, one offline');
    return { ...person(user), room };
  },
  request: (given) => `${given.name} here, user id ${given.user_id}. I'm away from home: are the ${given.room.toLowerCase()} lights off?`,
  answer: z.strictObject({
    lights: field.set(
      z.strictObject({
        light: field.id('The endpoint id of the light.'),
        power: field.choice(POWER_STATES, "Its power: as it reports it, or for an offline light the hub's last known state."),
        online: field.flag('Whether the light is online.'),
      }),
      'Every light of the room.',
    ),
  }),
  solve(tools, given) {
    const { devices } = tools.get_user_inventory({ user_id: given.user_id });
    const lights = devices.filter((d) => ['light', 'dimmer', 'color_bulb'].includes(d.type) && d.room === given.room);
    return {
      lights: lights.map((d) => ({
        light: d.endpoint,
        power: (d.online ? tools.get_device_telemetry({ endpoint: d.endpoint }).state : tools.get_device_details({ endpoint: d.endpoint }).state).power!,
        online: d.online,
      })),
    };
  },
  targets: [
    {
      kind: 'outage',
      tool: 'get_device_telemetry',
      recovery: "give the hub's last known state from get_device_details, as of its last_synced_at, and say it is not a live reading",
      via: ['get_device_details'],
    },
  ],
});
