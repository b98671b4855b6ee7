import t from 'tap';
import { statusFromBoard } from '../../../agents/plans/airline.js';
import { startServer, type TestServer } from '../../helpers/server.js';

// The policy's fallback for get_flight_status holds on every record: read as the policy says (the departures
// board of the origin; once it has left, the arrivals board of the destination; a 'Boarding' row delayed when
// its estimated departure is 15 minutes or more behind the schedule), the boards give the airline's status of
// every flight on every date, in the base data (seed 0) and in a generated world (seed 1), hazard-free. The
// session clock stands still, so every read sees the same moment (2024-05-15 15:00 EST).

type Obj = Record<string, any>;

const server = await startServer(t, { hazardEnv: {} });

async function ok(session: string, tool: string, args: Obj): Promise<any> {
  const reply = await server.call('airline', tool, args, session);
  if (reply.status !== 200) throw new Error(`${tool} ${JSON.stringify(args)}: ${reply.status} ${reply.text}`);
  return reply.body;
}

async function wrongRecords(server: TestServer, seed: number): Promise<{ checked: number; wrong: string[] }> {
  const session = await server.newSession({ seed, clock: { start: '2024-05-15T15:00:00-05:00', step_ms: 0 } });
  const flights = (await server.state(session))['airline']['flights'] as Record<string, Obj>;
  const boards = new Map<string, Promise<Obj[]>>();
  const row = async (airport: string, date: string, direction: string, flight_number: string) => {
    const key = `${airport}/${date}/${direction}`;
    if (!boards.has(key))
      boards.set(
        key,
        ok(session, 'get_flight_board', { airport, date, direction }).then((board) => board['flights']),
      );
    return (await boards.get(key)!).find((r) => r['flight_number'] === flight_number);
  };
  let checked = 0;
  const wrong: string[] = [];
  for (const flight of Object.values(flights)) {
    for (const date of Object.keys(flight['dates'])) {
      const airline = await ok(session, 'get_flight_status', { flight_number: flight['flight_number'], date });
      const departure = await row(flight['origin'], date, 'departures', flight['flight_number']);
      const arrival = departure?.['status'] === 'Departed' ? await row(flight['destination'], date, 'arrivals', flight['flight_number']) : undefined;
      const shown = statusFromBoard(departure, arrival);
      checked++;
      if (shown !== airline) wrong.push(`${flight['flight_number']} ${date}: airline ${airline}, boards ${shown} (${departure?.['status']})`);
    }
  }
  return { checked, wrong };
}

for (const seed of [0, 1]) {
  t.test(`seed ${seed}: the boards give the airline's status of every flight on every date`, async (t) => {
    const { checked, wrong } = await wrongRecords(server, seed);
    t.comment(`seed ${seed}: ${checked} flight dates checked, ${wrong.length} wrong`);
    t.ok(checked > 1000, `every flight date of the world is checked (${checked})`);
    t.same(wrong, [], 'no flight date the boards get wrong');
  });
}
