import { domains } from '../../domains/index.js';
import type { RetailDatabase } from '../../domains/retail/schema.js';
import type { BaseDatabase } from '../../server/core/data/base.js';
import { baseFromFile } from '../../server/core/data/base.js';
import { retailFixture } from './retail.js';
import { fixtureBases } from './server.js';

/**
 * The fixture's bases, with the retail database replaced by a patched copy of the fixture:
 * for the few situations the generated data never holds (a pending order with a repeated
 * item, a product name with accents). Pass the result to startServer(t, { bases }).
 */
export async function patchedRetailBases(patch: (db: RetailDatabase) => void): Promise<Map<string, BaseDatabase>> {
  const db = structuredClone(retailFixture());
  patch(db);
  const retail = domains.find((domain) => domain.name === 'retail')!;
  const bases = new Map(await fixtureBases());
  bases.set('retail', baseFromFile(retail, db, 'patched retail fixture'));
  return bases;
}
