import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { BAG_STATUSES } from '../schema.js';
import { airlineTask } from './define.js';
import { choose, movedLately } from './picks.js';

// A customer's bag that moved at its last scan: where it is, is that scan, which a cached summary can lag.

export default airlineTask({
  id: 'airline/018',
  title: 'Where is my bag?',
  categories: ['single-step'],
  pick({ db, random }) {
    const bags = [...db.bags.values()].filter((bag) => movedLately(bag) && db.reservations.has(bag.reservation_id));
    const bag = choose(random, bags, 'airline/018', 'bag scanned lately');
    return { user_id: db.reservations.get(bag.reservation_id)!.user_id, tag: bag.tag };
  },
  request: (given) => `Hi, I'm ${given.user_id}. Where is my checked bag right now? The tag number is ${given.tag}.`,
  answer: z.strictObject({
    status: field.choice(BAG_STATUSES, "The bag's status: 'checked', 'loaded', 'in_transit', 'arrived', 'delayed' or 'lost'."),
    location: field.id('The IATA code of the airport where the bag is (e.g. ATL).'),
  }),
  solve(tools, given) {
    tools.get_user_details({ user_id: given.user_id });
    const last = tools.track_baggage({ tag: given.tag }).bags[0]!.events.at(-1)!;
    return { status: last.status, location: last.location };
  },
  targets: [{ kind: 'stale_data', tool: 'track_baggage', recovery: 'say where the latest scan event puts the bag; the summary can lag the scans' }],
});
