import { z } from 'zod';
import { defineTool } from '../../tool.js';
import type { AirlineDb } from '../db.js';

export default defineTool({
  name: 'list_all_airports',
  description: 'Every airport the airline serves, as a list of IATA code and city. Use the codes to search flights.',
  input: z.strictObject({}),
  output: z.array(z.object({ iata: z.string().describe('IATA code, e.g. JFK.'), city: z.string() })),
  errors: [],
  mutates: false,
  example: {},
  run: (_args, db: AirlineDb) => [...db.airports.values()].map(({ iata, city }) => ({ iata, city })),
});
