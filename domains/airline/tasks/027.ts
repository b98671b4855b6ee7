import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { BAG_STATUSES } from '../schema.js';
import { airlineTask } from './define.js';
import { choose, movedLately } from './picks.js';

// A reservation with two checked bags or more, the most recently scanned of which moved at its last scan:
// a summary cached between those scans is behind.

export default airlineTask({
  id: 'airline/027',
  title: 'Where are the bags of my reservation?',
  categories: ['single-step'],
  pick({ db, random }) {
    const bagsOf = new Map<string, { tag: string; events: { at: string }[] }[]>();
    for (const bag of db.bags.values()) bagsOf.set(bag.reservation_id, [...(bagsOf.get(bag.reservation_id) ?? []), bag]);
    const candidates = [...bagsOf.entries()].flatMap(([reservation_id, bags]) => {
      if (bags.length < 2 || !db.reservations.has(reservation_id)) return [];
      const scanned = bags.filter((bag) => bag.events.length >= 2).sort((a, b) => b.events.at(-1)!.at.localeCompare(a.events.at(-1)!.at))[0];
      return scanned && movedLately(db.bags.get(scanned.tag)!) ? [reservation_id] : [];
    });
    const reservation_id = choose(random, candidates.sort(), 'airline/027', 'reservation with bags scanned lately');
    return { user_id: db.reservations.get(reservation_id)!.user_id, reservation_id };
  },
  request: (given) => `Hi, ${given.user_id} here. Where are the checked bags of my reservation ${given.reservation_id} now?`,
  answer: z.strictObject({
    bags: field.set(
      z.strictObject({
        tag: field.id('The bag-tag number.'),
        status: field.choice(BAG_STATUSES, "The bag's status: 'checked', 'loaded', 'in_transit', 'arrived', 'delayed' or 'lost'."),
        location: field.id('The IATA code of the airport where the bag is.'),
      }),
      'Every checked bag of the reservation, with where it is.',
    ),
  }),
  solve(tools, given) {
    tools.get_user_details({ user_id: given.user_id });
    return {
      bags: tools.track_baggage({ reservation_id: given.reservation_id }).bags.map((bag) => {
        const last = bag.events.at(-1)!;
        return { tag: bag.tag, status: last.status, location: last.location };
      }),
    };
  },
  targets: [{ kind: 'stale_data', tool: 'track_baggage', recovery: 'say where the latest scan event puts each bag; the summary can lag the scans' }],
});
