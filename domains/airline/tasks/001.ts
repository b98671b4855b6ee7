import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { FLIGHT_STATUSES } from '../schema.js';
import { airlineTask } from './define.js';
import { choose, place, steadyOnBoard, TODAY, TOMORROW } from './picks.js';

// A flight leaving today or tomorrow, picked by its status first (open for booking, on time, delayed,
// cancelled), so that the status to report varies from one instance to the next.

export default airlineTask({
  id: 'airline/001',
  title: 'Is my flight on time?',
  categories: ['single-step'],
  pick({ db, random }) {
    const candidates = [...db.flights.values()].flatMap((flight) =>
      [TODAY, TOMORROW].flatMap((date) => {
        const status = flight.dates[date]?.status;
        return status && ['available', 'on time', 'delayed', 'cancelled'].includes(status) && steadyOnBoard(flight, date) ? [{ flight, date, status }] : [];
      }),
    );
    const status = choose(random, [...new Set(candidates.map((c) => c.status))].sort(), 'airline/001', 'flight leaving today or tomorrow');
    const { flight, date } = random.pick(candidates.filter((c) => c.status === status));
    return {
      flight_number: flight.flight_number,
      date,
      when: date === TODAY ? 'today' : 'tomorrow',
      origin: flight.origin,
      destination: flight.destination,
      from: place(db, flight.origin),
      to: place(db, flight.destination),
    };
  },
  request: (given) =>
    `Hi! I'm flying on flight ${given.flight_number} from ${given.from} to ${given.to} ${given.when}, ${given.date}. Can you tell me whether it's on schedule?`,
  answer: z.strictObject({
    flight_number: field.id('The flight asked about, as the airline writes it (e.g. HAT055).'),
    status: field.choice(
      FLIGHT_STATUSES,
      "The airline's status of the flight on that date: 'available', 'on time', 'delayed', 'flying', 'landed' or 'cancelled'.",
    ),
  }),
  solve(tools, given) {
    return { flight_number: given.flight_number, status: tools.get_flight_status({ flight_number: given.flight_number, date: given.date }) };
  },
  targets: [
    {
      kind: 'adhoc_rule',
      tool: 'get_flight_status',
      recovery: "send the flight number without the carrier code, as the tool's description says (e.g. '055' for HAT055)",
    },
  ],
});
