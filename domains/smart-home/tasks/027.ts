import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { smartHomeTask, smartHomeTurn } from './define.js';
import { DOOR_STATES, devicesOf, inSync, LOCK_STATES, namesFor, named, people, person, pickFrom, spoken } from './common.js';

// A lock locked, then checked again: the lock's own report (lock_status) says so; the hub's view lags behind.

interface Given {
  name: string;
  user_id: string;
  lock: string;
}

export default smartHomeTask({
  id: 'smart-home/027',
  title: 'Lock the patio door, then double-check',
  categories: ['multi-mission'],
  pick({ db, random }): Given {
    const candidates = people(db).flatMap(({ user, home }) => {
      const devices = devicesOf(db, home.home_id);
      return devices
        .filter((d) => d.type === 'lock' && d.online && d.state.lock !== 'jammed' && d.state.door === 'closed' && inSync(d, ['lock']))
        .flatMap((lock) => namesFor(lock, devices).map((name) => ({ user, name, unlocked: lock.state.lock === 'unlocked' })));
    });
    // An unlocked one; in a world whose closed doors are all locked, one of those.
    const unlocked = candidates.filter((c) => c.unlocked);
    const { user, name } = pickFrom(random, unlocked.length > 0 ? unlocked : candidates, 'lock with its door closed');
    return { ...person(user), lock: spoken(name) };
  },
  request: (given) => `${given.name} here (${given.user_id}). Please lock ${given.lock}.`,
  answer: z.strictObject({
    lock: field.id('The endpoint id of the lock.'),
    lock_state: field.choice(LOCK_STATES, "The lock's bolt now, as the command's answer reports it."),
  }),
  solve(tools, given) {
    const { devices } = tools.get_user_inventory({ user_id: given.user_id });
    const { endpoint } = named(devices, given.lock);
    return { lock: endpoint, lock_state: tools.lock_lock({ endpoints: [endpoint] }).results[0]!.state!.lock! };
  },
  follow_ups: [
    smartHomeTurn({
      request: () => "Can you double-check that it's really locked now?",
      answer: z.strictObject({
        lock_state: field.choice(LOCK_STATES, 'Its bolt, as the lock reports it now.'),
        door: field.choice(DOOR_STATES, 'Its door sensor: whether the door stands open.'),
        battery: field.count('Its battery level in percent, as the lock reports it.'),
      }),
      solve(tools, given: Given) {
        const { devices } = tools.get_user_inventory({ user_id: given.user_id });
        const { endpoint } = named(devices, given.lock);
        const [lock] = tools.lock_status({ endpoints: [endpoint] }).locks;
        return { lock_state: lock!.lock!, door: lock!.door!, battery: lock!.battery! };
      },
    }),
  ],
  targets: [
    {
      kind: 'eventual_consistency',
      tool: 'lock_lock',
      recovery: "the command's answer and the lock's own report (lock_status) say it is locked; the hub's cached view catches up later",
      via: ['lock_status'],
    },
  ],
  claims: ['lock_state'],
});
