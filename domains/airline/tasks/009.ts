import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { airlineTask } from './define.js';
import { choose, namedByTrip, reservationOnTrip, tripOf, tripWords, upcoming } from './picks.js';

// Two passengers of a reservation of three or more (named by its trip) have their last names corrected; the
// others, and every date of birth, come from the reservation as it is.

/** A last name as it should have been spelled: one spelling changed. */
function respelled(name: string): string {
  const changes: [RegExp, string][] = [
    [/ie/, 'ei'],
    [/y$/, 'i'],
    [/ck/, 'k'],
    [/k/, 'ck'],
    [/ss/, 's'],
    [/ph/, 'f'],
    [/z/, 's'],
    [/i/, 'y'],
    [/en$/, 'an'],
    [/an$/, 'en'],
    [/a$/, 'ah'],
    [/o$/, 'os'],
  ];
  for (const [from, to] of changes) if (from.test(name)) return name.replace(from, to);
  return `${name}e`;
}

export default airlineTask({
  id: 'airline/009',
  title: "Correct two passengers' last names",
  categories: ['multi-step'],
  pick({ db, random }) {
    const candidates = [...db.reservations.values()].filter(
      (r) => upcoming(db, r) && r.passengers.length >= 3 && new Set(r.passengers.map((p) => p.first_name)).size === r.passengers.length && namedByTrip(db, r),
    );
    const reservation = choose(random, candidates, 'airline/009', 'reservation of three passengers or more');
    const fixes = random.sample(reservation.passengers, 2).map((p) => ({ first_name: p.first_name, recorded: p.last_name, correct: respelled(p.last_name) }));
    const trip = tripOf(reservation);
    return { user_id: reservation.user_id, ...trip, trip_words: tripWords(db, trip), fixes };
  },
  request: (given) => {
    const [a, b] = given.fixes as [(typeof given.fixes)[number], (typeof given.fixes)[number]];
    return (
      `Hello, user ${given.user_id} here. On ${given.trip_words} two last names are misspelled: ${a.first_name} ${a.recorded} should ` +
      `be ${a.first_name} ${a.correct}, ` +
      `and ${b.first_name} ${b.recorded} should be ${b.first_name} ${b.correct}. Everything else (first names, dates of birth, the other passengers) stays ` +
      `the same. ` +
      'Please fix them, I confirm the change.'
    );
  },
  answer: z.strictObject({
    reservation_id: field.id('The id of the reservation changed.'),
    passengers: field.set(
      z.strictObject({
        first_name: field.text('First name.'),
        last_name: field.text('Last name.'),
        dob: field.date('Date of birth, YYYY-MM-DD.'),
      }),
      'Every passenger of the reservation as it now stands.',
    ),
  }),
  solve(tools, given) {
    const reservation = reservationOnTrip(tools, given.user_id, given);
    const passengers = reservation.passengers.map((p) => ({
      ...p,
      last_name: given.fixes.find((fix) => fix.first_name === p.first_name)?.correct ?? p.last_name,
    }));
    const updated = tools.update_reservation_passengers({ reservation_id: reservation.reservation_id, passengers });
    return { reservation_id: updated.reservation_id, passengers: updated.passengers };
  },
  targets: [
    {
      kind: 'partial_failure',
      tool: 'update_reservation_passengers',
      recovery: "read each passenger's ticketing status in the answer and repeat the change until none failed",
    },
  ],
  claims: ['passengers'],
});
