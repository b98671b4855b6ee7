import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { smartHomeTask, smartHomeTurn } from './define.js';
import { devicesOf, LOCK_STATES, namesFor, named, people, person, pickFrom, spoken } from './common.js';

// Unlocking waits for an explicit "yes": the first turn names the lock and changes nothing; the second unlocks it.

interface Given {
  name: string;
  user_id: string;
  lock: string;
  visitor: string;
}

export default smartHomeTask({
  id: 'smart-home/005',
  title: 'Unlock the front door after confirmation',
  categories: ['multi-mission', 'multi-step'],
  pick({ db, random }): Given {
    const candidates = people(db).flatMap(({ user, home }) => {
      const devices = devicesOf(db, home.home_id);
      return devices
        .filter(
          (d) => d.type === 'lock' && d.online && d.state.lock === 'locked' && d.state.door === 'closed' && (d.authorized_users ?? []).includes(user.user_id),
        )
        .flatMap((lock) => namesFor(lock, devices).map((name) => ({ user, name })));
    });
    const { user, name } = pickFrom(random, candidates, 'locked lock its person may open');
    return { ...person(user), lock: spoken(name), visitor: random.pick(['My sister', 'My dad', 'A friend of mine', 'The babysitter']) };
  },
  request: (given) => `Hi, this is ${given.name} (user id ${given.user_id}). ${given.visitor} is about to arrive: can you unlock ${given.lock} for them?`,
  answer: z.strictObject({
    lock: field.id('The endpoint id of the lock you will unlock once the person confirms.'),
    room: field.text('The room that lock is in.'),
  }),
  solve(tools, given) {
    const { devices } = tools.get_user_inventory({ user_id: given.user_id });
    const lock = named(devices, given.lock);
    return { lock: lock.endpoint, room: lock.room };
  },
  follow_ups: [
    smartHomeTurn({
      request: () => 'Yes, go ahead and unlock it.',
      answer: z.strictObject({
        lock: field.id('The endpoint id of the lock you unlocked.'),
        lock_state: field.choice(LOCK_STATES, "The lock's bolt now, as the command's answer reports it."),
      }),
      solve(tools, given: Given) {
        const { devices } = tools.get_user_inventory({ user_id: given.user_id });
        const { endpoint } = named(devices, given.lock);
        const state = tools.lock_unlock({ endpoints: [endpoint], user_id: given.user_id }).results[0]!.state!;
        return { lock: endpoint, lock_state: state.lock! };
      },
    }),
  ],
  targets: [
    {
      kind: 'invocation_error',
      tool: 'lock_unlock',
      recovery: 'send the unlock with an idempotency_key, as the 428 asks',
    },
  ],
});
