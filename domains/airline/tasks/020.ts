import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { attempt } from '../../task.js';
import { BAG_STATUSES } from '../schema.js';
import { airlineTask } from './define.js';
import { choose, movedLately } from './picks.js';

// Two tags the customer reads out: one of a bag of theirs that moved at its last scan, the other the same
// number with two digits swapped, which no bag has.

/** The tag with two neighbouring digits swapped: the first such number no bag has. */
function misread(tag: string, taken: (tag: string) => boolean): string | undefined {
  for (let i = 0; i + 1 < tag.length; i++) {
    if (tag[i] === tag[i + 1]) continue;
    const swapped = `${tag.slice(0, i)}${tag[i + 1]}${tag[i]}${tag.slice(i + 2)}`;
    if (!taken(swapped)) return swapped;
  }
  return undefined;
}

export default airlineTask({
  id: 'airline/020',
  title: 'Two bag tags, one wrong',
  categories: ['partial'],
  pick({ db, random }) {
    const bags = [...db.bags.values()].filter((bag) => movedLately(bag) && db.reservations.has(bag.reservation_id));
    const bag = choose(random, bags, 'airline/020', 'bag scanned lately');
    const wrong = misread(bag.tag, (tag) => db.bags.has(tag));
    if (wrong === undefined) throw new Error(`airline/020: no misread tag for ${bag.tag}`);
    return { user_id: db.reservations.get(bag.reservation_id)!.user_id, tags: random.shuffle([bag.tag, wrong]) };
  },
  request: (given) => `Hello, ${given.user_id} here. Where are my two checked bags? Tags ${given.tags[0]} and ${given.tags[1]}.`,
  answer: z.strictObject({
    bags: field.set(
      z.strictObject({
        tag: field.id('The bag-tag number.'),
        status: field.choice(BAG_STATUSES, "The bag's status: 'checked', 'loaded', 'in_transit', 'arrived', 'delayed' or 'lost'."),
        location: field.id('The IATA code of the airport where the bag is.'),
      }),
      'Each bag found, with where it is.',
    ),
    unknown_tags: field.set(field.id('A tag number.'), 'The tags given that match no bag.'),
  }),
  solve(tools, given) {
    tools.get_user_details({ user_id: given.user_id });
    const bags = [];
    const unknown_tags = [];
    for (const tag of given.tags) {
      const tracked = attempt(() => tools.track_baggage({ tag }));
      if (!tracked.ok) {
        unknown_tags.push(tag);
        continue;
      }
      const last = tracked.value.bags[0]!.events.at(-1)!;
      bags.push({ tag, status: last.status, location: last.location });
    }
    return { bags, unknown_tags };
  },
  targets: [{ kind: 'stale_data', tool: 'track_baggage', recovery: 'say where the latest scan event puts the bag; the summary can lag the scans' }],
});
