import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { FLIGHT_STATUSES } from '../schema.js';
import { airlineTask } from './define.js';
import { choose, place, steadyOnBoard, TOMORROW } from './picks.js';

// Three flights of tomorrow, one of them no longer open for booking (delayed, on time or cancelled) where the
// world has one: their statuses, asked together.

export default airlineTask({
  id: 'airline/024',
  title: 'Three flights tomorrow',
  categories: ['parallel', 'single-step'],
  pick({ db, random }) {
    const flights = [...db.flights.values()].filter((f) => f.dates[TOMORROW] !== undefined && steadyOnBoard(f, TOMORROW));
    const closed = flights.filter((f) => f.dates[TOMORROW]!.status !== 'available');
    const first = choose(random, closed.length > 0 ? closed : flights, 'airline/024', 'flight tomorrow');
    const others = random.sample(
      flights.filter((f) => f !== first),
      2,
    );
    const picked = random.shuffle([first, ...others]);
    return {
      date: TOMORROW,
      flights: picked.map((f) => ({
        flight_number: f.flight_number,
        origin: f.origin,
        destination: f.destination,
        from: place(db, f.origin),
        to: place(db, f.destination),
      })),
    };
  },
  request: (given) => {
    const [a, b, c] = given.flights as [(typeof given.flights)[number], (typeof given.flights)[number], (typeof given.flights)[number]];
    return (
      `Could you check tomorrow's (${given.date}) status of three flights for me: ${a.flight_number} from ${a.from} to ${a.to}, ` +
      `${b.flight_number} from ${b.from} to ${b.to}, and ${c.flight_number} from ${c.from} to ${c.to}?`
    );
  },
  answer: z.strictObject({
    flights: field.set(
      z.strictObject({
        flight_number: field.id('The flight number.'),
        status: field.choice(FLIGHT_STATUSES, "The airline's status of the flight on that date."),
      }),
      'Each of the three flights with its status.',
    ),
  }),
  solve(tools, given) {
    return {
      flights: given.flights.map(({ flight_number }) => ({ flight_number, status: tools.get_flight_status({ flight_number, date: given.date }) })),
    };
  },
  targets: [
    {
      kind: 'adhoc_rule',
      tool: 'get_flight_status',
      recovery: "send the flight number without the carrier code, as the tool's description says (e.g. '055' for HAT055)",
    },
    {
      kind: 'outage',
      tool: 'get_flight_status',
      recovery:
        "read the flight's row on the departures board of its origin (and the arrivals board of its destination once it left) with get_flight_board, and say " +
        'the status comes from the airport',
      via: ['get_flight_board'],
    },
  ],
});
