import { assetUrl } from '../../lib/assets.js';
import { generateRetail } from '../../fixtures/generator/retail.js';
import type { DatabaseFile, Domain } from '../domain.js';
import { commonTools } from '../common/index.js';
import { completeRetail } from './derive.js';
import { retailHazards } from './hazards/index.js';
import { RetailDatabase } from './schema.js';
import { retailTools } from './tools/index.js';
import { retailTasks } from './tasks/index.js';
import { RETAIL_ERRORS } from './errors.js';

export const retail: Domain = {
  name: 'retail',
  title: 'Retail',
  summary:
    'An online store: customers, products with variants, orders with fulfillments and payments, carts and ' +
    "shipment tracking. tau2-bench's retail tools with their rules, plus search, cart and checkout.",
  database: RetailDatabase as unknown as Domain['database'],
  complete: (file: DatabaseFile) => completeRetail(file as RetailDatabase) as unknown as DatabaseFile,
  tools: [...retailTools, ...commonTools],
  errors: RETAIL_ERRORS,
  policyFile: assetUrl('domains/retail/policy.md'),
  fixtureFile: assetUrl('fixtures/retail.json'),
  world: (seed: number) => generateRetail(`instance:${seed}`, { scale: 0.25 }) as unknown as DatabaseFile,
  tasks: async () => retailTasks,
  hazards: retailHazards,
};
