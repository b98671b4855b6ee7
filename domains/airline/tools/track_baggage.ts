import { z } from 'zod';
import { defineTool } from '../../tool.js';
import { toolError } from '../../errors.js';
import { AIRLINE_ERRORS } from '../errors.js';
import { reservationId } from '../fields.js';
import { requireReservation, resolveKey, type AirlineDb } from '../db.js';
import { toEst } from '../operations.js';
import { Bag, EstDateTime } from '../schema.js';
import { codesOf } from '../../../lib/error-catalog.js';

export default defineTool({
  name: 'track_baggage',
  description:
    "Where checked bags are: each bag's tag, passenger, first flight, status ('checked', 'loaded', 'in_transit', " +
    "'arrived', 'delayed', 'lost'), the airport where it was last scanned, and its scan events, oldest first. Give " +
    'exactly one of `tag` (the number on the bag-tag receipt) or `reservation_id` (every bag of the reservation; none ' +
    'until they are dropped off).',
  input: z.strictObject({
    tag: z.string().min(1).optional().describe("Bag-tag number, 10 digits, e.g. '1008143347'."),
    reservation_id: reservationId.optional().describe("Reservation id, e.g. 'ZFA04Y', for all of its bags."),
  }),
  output: z.object({
    bags: z.array(Bag).describe('Ordered by tag.'),
    as_of: EstDateTime.describe("When the bags' status and location were last refreshed from their scans, Eastern time."),
    cache: z.enum(['HIT', 'MISS']).describe("'HIT' when the summary came from the tracking cache, 'MISS' when it was read live."),
  }),
  errors: codesOf(AIRLINE_ERRORS, 'reservation_not_found', 'bag_not_found', 'tag_or_reservation'),
  mutates: false,
  example: { tag: '1006540052' },
  run({ tag, reservation_id }, db: AirlineDb, ctx) {
    const live = { as_of: toEst(ctx.now()), cache: 'MISS' as const };
    if ((tag === undefined) === (reservation_id === undefined)) {
      throw toolError(AIRLINE_ERRORS.tag_or_reservation, 'Give exactly one of tag or reservation_id');
    }
    if (tag !== undefined) {
      const key = resolveKey(db.bags, tag);
      if (key === undefined) throw toolError(AIRLINE_ERRORS.bag_not_found, `Bag ${tag} not found`);
      return { bags: [db.bags.get(key)!], ...live };
    }
    const reservation = requireReservation(db, reservation_id!);
    const bags = [...db.bags.values()].filter((bag) => bag.reservation_id === reservation.reservation_id);
    return { bags: bags.sort((a, b) => a.tag.localeCompare(b.tag)), ...live };
  },
});
