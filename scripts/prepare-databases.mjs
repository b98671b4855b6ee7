// After compiling: each domain's embedded database, validated and completed once, written beside it in
// dist/ as <name>.prepared.json, so that the server starts from it without validating and deriving again
// (server/core/data/prepared.ts; it is used only while the database file holds the bytes it was made from).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { domains } from '../dist/domains/index.js';
import { prepare, preparedPath } from '../dist/server/core/data/prepared.js';

for (const domain of domains) {
  const path = fileURLToPath(domain.fixtureFile);
  writeFileSync(preparedPath(path), JSON.stringify(prepare(domain, readFileSync(path))));
}
console.log(`prepared ${domains.length} databases in dist/fixtures/`);
