import { assetUrl } from '../../lib/assets.js';
import { generateAirline } from '../../fixtures/generator/airline.js';
import type { DatabaseFile, Domain } from '../domain.js';
import { commonTools } from '../common/index.js';
import { completeAirline } from './derive/index.js';
import { airlineHazards } from './hazards/index.js';
import { AirlineDatabase } from './schema.js';
import { airlineExtraTools } from './tools/extra.js';
import { airlineTools } from './tools/index.js';
import { airlineTasks } from './tasks/index.js';
import { AIRLINE_ERRORS } from './errors.js';

export const airline: Domain = {
  name: 'airline',
  title: 'Airline',
  summary:
    'An airline: flights with per-date status, seats and fares, members with payment methods and saved passengers, ' +
    "reservations with payments, seat maps, check-ins and checked bags. tau2-bench's airline tools with their rules, " +
    'plus flight boards, seats, check-in, boarding passes and baggage tracking.',
  database: AirlineDatabase as unknown as Domain['database'],
  complete: (file: DatabaseFile) => completeAirline(file as AirlineDatabase) as unknown as DatabaseFile,
  tools: [...airlineTools, ...airlineExtraTools, ...commonTools],
  errors: AIRLINE_ERRORS,
  policyFile: assetUrl('domains/airline/policy.md'),
  fixtureFile: assetUrl('fixtures/airline.json'),
  world: (seed: number) => generateAirline(`instance:${seed}`, { scale: 0.2 }) as unknown as DatabaseFile,
  tasks: async () => airlineTasks,
  hazards: airlineHazards,
};
