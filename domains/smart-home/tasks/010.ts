import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { smartHomeTask } from './define.js';
import { devicesOf, inSync, LOCK_STATES, namesFor, named, people, person, pickFrom, spoken } from './common.js';

// An unlocked lock, locked: its command's answer says how it is; the hub's view lags behind it for a while.

export default smartHomeTask({
  id: 'smart-home/010',
  title: 'Lock the back door',
  categories: ['single-step'],
  pick({ db, random }) {
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
  request: (given) => `This is ${given.name} (${given.user_id}). Lock ${given.lock}, please.`,
  answer: z.strictObject({
    lock: field.id('The endpoint id of the lock.'),
    lock_state: field.choice(LOCK_STATES, "The lock's bolt now, as the lock reports it."),
    battery: field.count("The lock's battery level in percent, as the lock reports it."),
  }),
  solve(tools, given) {
    const { devices } = tools.get_user_inventory({ user_id: given.user_id });
    const { endpoint } = named(devices, given.lock);
    const state = tools.lock_lock({ endpoints: [endpoint] }).results[0]!.state!;
    return { lock: endpoint, lock_state: state.lock!, battery: state.battery! };
  },
  targets: [
    {
      kind: 'eventual_consistency',
      tool: 'lock_lock',
      recovery: "trust the command's own answer (or the lock's own report): the hub's cached view catches up later",
    },
  ],
  claims: ['lock_state'],
});
