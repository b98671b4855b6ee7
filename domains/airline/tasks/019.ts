import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { airlineTask } from './define.js';
import { choose, place, settledOnBoard, TODAY } from './picks.js';

// An airport whose departures today include a cancelled or delayed flight, none of them boarding or taking
// off right now: the airline's status of each departure decides, which the airport's board may lag.

export default airlineTask({
  id: 'airline/019',
  title: "Today's disrupted departures",
  categories: ['parallel', 'multi-step'],
  pick({ db, random }) {
    const airports = [...db.airports.values()].map((a) => a.iata).sort();
    const departures = (airport: string) => [...db.flights.values()].filter((f) => f.origin === airport && f.dates[TODAY] !== undefined);
    const settled = airports.filter((airport) => departures(airport).length > 0 && departures(airport).every((f) => settledOnBoard(f, TODAY)));
    const disrupted = settled.filter((airport) => departures(airport).some((f) => ['cancelled', 'delayed'].includes(f.dates[TODAY]!.status)));
    const airport = choose(random, disrupted.length > 0 ? disrupted : settled, 'airline/019', 'airport with departures today');
    return { airport, at: place(db, airport), date: TODAY };
  },
  request: (given) => `I'm at ${given.at} airport. Which of today's departures from here are cancelled or delayed?`,
  answer: z.strictObject({
    cancelled: field.set(field.id('A flight number.'), "Today's departures from the airport that the airline has cancelled."),
    delayed: field.set(field.id('A flight number.'), "Today's departures from the airport that the airline reports delayed."),
  }),
  solve(tools, given) {
    const board = tools.get_flight_board({ airport: given.airport, date: given.date, direction: 'departures' });
    const statuses = board.flights.map((row) => ({
      flight: row.flight_number,
      status: tools.get_flight_status({ flight_number: row.flight_number, date: given.date }),
    }));
    const having = (status: string) => statuses.filter((s) => s.status === status).map((s) => s.flight);
    return { cancelled: having('cancelled'), delayed: having('delayed') };
  },
  targets: [
    {
      kind: 'conflict',
      tool: 'get_flight_board',
      recovery: 'check each departure the board still shows before take-off with get_flight_status, which decides cancellations and delays',
    },
  ],
});
