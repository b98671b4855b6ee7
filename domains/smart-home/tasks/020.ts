import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { smartHomeTask } from './define.js';
import { DOOR_STATES, devicesOf, inSync, LOCK_STATES, namesFor, named, people, person, pickFrom, spoken } from './common.js';

// Whether a lock is locked: the lock's own report decides, not the hub's cached view.

export default smartHomeTask({
  id: 'smart-home/020',
  title: 'Is the front door locked?',
  categories: ['single-step'],
  pick({ db, random }) {
    const candidates = people(db).flatMap(({ user, home }) => {
      const devices = devicesOf(db, home.home_id);
      return devices
        .filter((d) => d.type === 'lock' && d.online && inSync(d, ['lock', 'door']))
        .flatMap((lock) => namesFor(lock, devices).map((name) => ({ user, name })));
    });
    const { user, name } = pickFrom(random, candidates, 'lock online');
    return { ...person(user), lock: spoken(name) };
  },
  request: (given) => `${given.name} here (${given.user_id}). Is ${given.lock} locked?`,
  answer: z.strictObject({
    lock: field.id('The endpoint id of the lock.'),
    lock_state: field.choice(LOCK_STATES, 'Its bolt, as the lock reports it now.'),
    door: field.choice(DOOR_STATES, 'Its door sensor: whether the door stands open.'),
  }),
  solve(tools, given) {
    const { devices } = tools.get_user_inventory({ user_id: given.user_id });
    const { endpoint } = named(devices, given.lock);
    const { state } = tools.get_device_telemetry({ endpoint });
    return { lock: endpoint, lock_state: state.lock!, door: state.door! };
  },
  targets: [
    {
      kind: 'conflict',
      tool: 'get_device_details',
      recovery: "ask the lock itself with get_device_telemetry, which the policy makes authoritative over the hub's cached view",
      via: ['get_device_telemetry'],
    },
  ],
});
